// The enumerations end to end (real server binary, Chromium): an admin adds an asset category on
// /admin/enums with both labels, the URL restores the view after a reload, another signed-in user
// reads the new value from the API at once, and may not open the admin screen; the new category is
// offered in another user's asset category picker (/assets/new) at once, and still with the network
// off. (The server's check of the codes a synced asset takes: sync/enumcheck_test.go.)
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { adminAccount, createOnboardedAccount, storageStateFor } from "./support/accounts";
import { expect, test } from "./support/fixtures";

const PASSWORD = "lengthy e2e passphrase 4821";

test.describe("enumerations", () => {
  test("an admin adds a category that another user gets at once", async ({ browser, baseURL }) => {
    if (!baseURL) throw new Error("no base URL");
    const run = randomBytes(4).toString("hex");
    const admin = await adminAccount(baseURL);
    const user = await createOnboardedAccount(baseURL, `enums-user-${run}@example.com`, PASSWORD);
    const adminContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, admin), locale: "es-ES" });
    const userContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, user), locale: "es-ES" });
    try {
      const page = await adminContext.newPage();
      await page.goto("/admin/enums?type=asset_category&parentId=1");
      await expect(page.getByRole("heading", { level: 1, name: "Enumeraciones" })).toBeVisible();
      const table = page.getByRole("table", { name: /Valores de/ });
      await expect(table.getByRole("row", { name: /Residencial/ })).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Ruta" }).getByText("Inmuebles")).toBeVisible();

      await page.getByRole("button", { name: "Nuevo valor" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByLabel("Nombre en español").fill(`Terreno ${run}`);
      await dialog.getByLabel("Nombre en inglés").fill(`Land ${run}`);
      await dialog.getByLabel("Código").fill(`land-${run}`);
      await dialog.getByRole("button", { name: "Guardar" }).click();
      await expect(dialog).toBeHidden();
      await expect(table.getByRole("row", { name: new RegExp(`Terreno ${run}`) })).toBeVisible();
      await expect(page.getByTestId("enum-audit")).toContainText(`${admin.email} creó «Terreno ${run}»`);

      // The URL holds the view: a reload shows the same list, with the new value.
      await page.reload();
      await expect(page.getByRole("table", { name: /Valores de/ }).getByRole("row", { name: new RegExp(`Terreno ${run}`) })).toBeVisible();

      // Another user reads it at once (the pickers' cache refreshes from this call) …
      const answer = await userContext.request.get("/api/v1/enums/?type=asset_category&parentId=1");
      expect(answer.status()).toBe(200);
      const values = (await answer.json()) as { code: string; labels: { es: string; en: string }; active: boolean }[];
      expect(values.find((v) => v.code === `land-${run}`)).toMatchObject({ labels: { es: `Terreno ${run}`, en: `Land ${run}` }, active: true });
      // … and may not open the admin screen, nor change values.
      const userPage = await userContext.newPage();
      await userPage.goto("/admin/enums?type=country");
      await expect(userPage.getByRole("heading", { level: 1, name: "Enumeraciones" })).toHaveCount(0);
      const refused = await userContext.request.post("/api/v1/admin/enums", {
        headers: { Origin: baseURL },
        data: { type: "asset_category", code: `x-${run}`, parentId: 1, labels: { es: "X", en: "X" } },
      });
      expect(refused.status()).toBe(403);
    } finally {
      await adminContext.close();
      await userContext.close();
    }
  });

  test("a category an admin adds is in another user's asset category picker at once, and offline too", async ({ browser, baseURL }) => {
    if (!baseURL) throw new Error("no base URL");
    // Three browser contexts, and each page load fills the device cache with the whole list (~5,600
    // values) in the background: on a loaded machine this takes longer than the defaults allow.
    test.slow();
    const cacheFilled = { timeout: 20_000 };
    const run = randomBytes(4).toString("hex");
    const admin = await adminAccount(baseURL);
    const user = await createOnboardedAccount(baseURL, `enums-picker-${run}@example.com`, PASSWORD);
    const adminContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, admin), locale: "es-ES" });
    const userContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, user), locale: "es-ES" });
    try {
      // The user's device has the enumerations cached, without the new category yet.
      const userPage = await userContext.newPage();
      await userPage.goto("/assets/new");
      const realEstate = userPage.getByTestId("class-real_estate");
      await expect(realEstate.getByRole("link", { name: "Residencial" })).toBeVisible(cacheFilled);
      await expect(realEstate.getByRole("link", { name: `Plaza de garaje ${run}` })).toHaveCount(0);

      const adminPage = await adminContext.newPage();
      await addCategory(adminPage, { es: `Plaza de garaje ${run}`, en: `Parking space ${run}`, code: `parking-${run}` });

      // The picker, opened again, asks the server for the list (changed: 200, not 304) and offers
      // the new category under its class only, with the code it will store.
      const refreshed = userPage.waitForResponse((r) => new URL(r.url()).pathname === "/api/v1/enums/" && r.status() === 200, cacheFilled);
      await userPage.goto("/assets/new");
      await refreshed;
      const option = realEstate.getByRole("link", { name: `Plaza de garaje ${run}` });
      await expect(option).toBeVisible(cacheFilled);
      await expect(option).toHaveAttribute("data-category-code", `parking-${run}`);
      await expect(userPage.getByTestId("class-vehicles").getByRole("link", { name: `Plaza de garaje ${run}` })).toHaveCount(0);

      // Offline: the picker reads the device's copy.
      await userPage.evaluate(async () => {
        await navigator.serviceWorker.ready;
      });
      await userContext.setOffline(true);
      await userPage.reload();
      await expect(realEstate.getByRole("link", { name: `Plaza de garaje ${run}` })).toBeVisible(cacheFilled);
      const reachable = await userPage.evaluate(async () => {
        try {
          await fetch("/api/v1/health", { cache: "no-store" });
          return true;
        } catch {
          return false;
        }
      });
      expect(reachable).toBe(false);
      await userContext.setOffline(false);

      // The English label follows the language.
      const enContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, user), locale: "en-GB" });
      try {
        const enPage = await enContext.newPage();
        await enPage.goto("/assets/new");
        await expect(enPage.getByTestId("class-real_estate").getByRole("link", { name: `Parking space ${run}` })).toBeVisible(cacheFilled);
      } finally {
        await enContext.close();
      }
    } finally {
      await adminContext.close();
      await userContext.close();
    }
  });
});

/** Adds an asset category under real estate on the admin screen, both labels and the code. */
async function addCategory(page: Page, value: { es: string; en: string; code: string }): Promise<void> {
  await page.goto("/admin/enums?type=asset_category&parentId=1");
  await page.getByRole("button", { name: "Nuevo valor" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nombre en español").fill(value.es);
  await dialog.getByLabel("Nombre en inglés").fill(value.en);
  await dialog.getByLabel("Código").fill(value.code);
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("table", { name: /Valores de/ }).getByRole("row", { name: new RegExp(value.es) })).toBeVisible();
}
