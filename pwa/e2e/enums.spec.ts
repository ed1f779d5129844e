// The enumerations end to end (real server binary, Chromium): an admin adds an asset category on
// /admin/enums with both labels, the URL restores the view after a reload, another signed-in user
// reads the new value from the API at once, and may not open the admin screen.
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
});
