// The UI kit catalogue (catalogue/: every component of pwa/src/ui in its states) in real Chromium,
// served by the real binary from the e2e build: axe-core finds no serious or critical violation in
// light and dark, desktop and phone widths (also with a dialog, a menu and the combobox list open);
// the keyboard drives the combobox, a dialog keeps the focus, type-to-confirm gates its button,
// numbers typed in Spanish reach the form as decimal strings, and the 10,000-row table renders a
// window. Full-page screenshots of the catalogue in both themes are written to
// test-results/catalogue/ on every run (for people to look at; not compared).
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { CATALOGUE_MARKER, CATALOGUE_PATH } from "./catalogue/marker";
import { A11Y_VARIANTS, applyA11yVariant, expectNoSeriousA11yViolations, expectVariantApplied } from "./support/axe";
import { REPO_ROOT, startServer, type RunningServer } from "./support/server";
import { E2E_WEB_DIR } from "./support/sync-fixtures";

const SCREENSHOTS = path.join(REPO_ROOT, "test-results", "catalogue");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

let server: RunningServer;

test.beforeAll(async () => {
  if (!existsSync(path.join(E2E_WEB_DIR, "e2e", "catalogue", "index.html"))) {
    throw new Error("the e2e build of the PWA is missing: `make test-e2e` builds it (vite build -c pwa/e2e/sync-page/vite.config.ts)");
  }
  server = await startServer({ PATRIMONIO_WEB_DIR: E2E_WEB_DIR });
});

test.afterAll(async () => {
  await server?.stop();
});

async function openCatalogue(page: Page, search = ""): Promise<void> {
  await page.goto(`${server.url}${CATALOGUE_PATH}${search}`);
  await expect(page.locator(`[data-page="${CATALOGUE_MARKER}"]`)).toBeVisible();
  await expect(page.getByRole("table", { name: "Activos de ejemplo" })).toBeVisible();
}

test.describe("the UI kit catalogue", () => {
  for (const variant of A11Y_VARIANTS) {
    test(`has no serious accessibility violation · ${variant.label}; full-page screenshot`, async ({ page }) => {
      // A long page checked four times (closed and with three overlays open) on a shared machine.
      test.slow();
      mkdirSync(SCREENSHOTS, { recursive: true });
      await applyA11yVariant(page, variant);
      await openCatalogue(page);
      await expectVariantApplied(page, variant);
      await expectNoSeriousA11yViolations(page, `catalogue · ${variant.label}`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `catalogue-${variant.theme}-${variant.viewport}.png`), fullPage: true });

      // Overlays are portals outside the page's flow: check them open too.
      await page.getByTestId("open-dialog").click();
      await expect(page.getByRole("dialog", { name: "Invitar a una persona" })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `catalogue dialog · ${variant.label}`);
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Más acciones" }).click();
      await expect(page.getByRole("menu")).toBeVisible();
      await expectNoSeriousA11yViolations(page, `catalogue menu · ${variant.label}`);
      await page.keyboard.press("Escape");

      const combobox = page.getByRole("combobox", { name: "País de residencia" });
      await combobox.click();
      await combobox.press("ArrowDown");
      await expect(page.getByRole("listbox", { name: "País de residencia" })).toBeVisible();
      await expectNoSeriousA11yViolations(page, `catalogue combobox · ${variant.label}`);
      await combobox.press("Escape");
      expect(existsSync(path.join(SCREENSHOTS, `catalogue-${variant.theme}-${variant.viewport}.png`))).toBe(true);
    });
  }

  test("the theme toggle switches the page between light and dark", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await openCatalogue(page);
    await page.evaluate(() => localStorage.setItem("patrimonio.theme", "light"));
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();
    await page.getByTestId("toggle-theme").click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    expect(await background()).not.toBe(light);
  });

  test("the combobox works with the keyboard alone, accents and case ignored", async ({ page }) => {
    await openCatalogue(page);
    const combobox = page.getByRole("combobox", { name: "País de residencia" });
    await combobox.focus();
    await combobox.fill("peru");
    const listbox = page.getByRole("listbox", { name: "País de residencia" });
    await expect(listbox.getByRole("option")).toHaveText(["PerúPE"]);
    await combobox.press("Enter");
    await expect(page.getByTestId("country-value")).toHaveText('"PE"');
    await expect(combobox).toHaveValue("Perú");
    await expect(combobox).toHaveAttribute("aria-expanded", "false");

    // Arrow keys open the whole list at the selected country and move through it.
    await combobox.press("ArrowDown");
    await expect(combobox).toHaveAttribute("aria-expanded", "true");
    const activeText = async () => {
      const id = await combobox.getAttribute("aria-activedescendant");
      return id ? page.locator(`[id="${id}"]`).innerText() : null;
    };
    expect(await activeText()).toContain("Perú");
    await combobox.press("Home");
    const first = await activeText();
    await combobox.press("End");
    const last = await activeText();
    expect(first).not.toBe(last);
    expect(await listbox.getByRole("option").count()).toBeGreaterThan(240);
    await combobox.press("ArrowUp");
    await combobox.press("Enter");
    await expect(page.getByTestId("country-value")).not.toHaveText('"PE"');
    // Escape closes without picking.
    await combobox.fill("mex");
    await combobox.press("Escape");
    await expect(combobox).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("country-value")).not.toHaveText('"MX"');
  });

  test("a dialog takes the focus, keeps it inside and gives it back", async ({ page }) => {
    await openCatalogue(page);
    const trigger = page.getByTestId("open-dialog");
    await trigger.click();
    const dialog = page.getByRole("dialog", { name: "Invitar a una persona" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("textbox", { name: "Correo electrónico" })).toBeFocused();
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("Shift+Tab");
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(trigger).toBeFocused();
  });

  test("type-to-confirm keeps the destructive button disabled until the name is typed", async ({ page }) => {
    await openCatalogue(page);
    await page.getByTestId("open-alert").click();
    const dialog = page.getByRole("alertdialog", { name: "¿Eliminar «Familia»?" });
    const confirm = dialog.getByRole("button", { name: "Eliminar espacio" });
    const field = dialog.getByRole("textbox", { name: "Confirmación" });
    await expect(field).toBeFocused();
    await expect(dialog.getByText("Escribe «Familia» para confirmar.")).toBeVisible();
    await expect(confirm).toBeDisabled();
    await field.fill("familia");
    await expect(confirm).toBeDisabled();
    await field.fill("Familia");
    await expect(confirm).toBeEnabled();
    await field.press("Enter");
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId("confirmed-count")).toHaveText("confirmado: 1");
  });

  test("numbers typed the Spanish way (or pasted the English way) reach the form as decimal strings", async ({ page }) => {
    await openCatalogue(page);
    const input = page.getByRole("textbox", { name: "Cantidad", exact: true });
    await input.fill("1.234,56");
    await expect(page.getByTestId("decimal-value")).toHaveText('"1234.56"');
    await input.blur();
    // Shown grouped once the field is left (Spanish groups from four digits).
    await expect(input).toHaveValue("1.234,56");
    // Focused, the number to edit, without grouping (the text changes, so wait for it before
    // typing over it).
    await input.focus();
    await expect(input).toHaveValue("1234,56");
    await input.fill("1,234.56");
    await expect(page.getByTestId("decimal-value")).toHaveText('"1234.56"');
    await input.fill("12345678,9");
    await input.blur();
    await expect(input).toHaveValue("12.345.678,9");
    await expect(page.getByTestId("decimal-value")).toHaveText('"12345678.9"');
    // Garbage: an error linked to the field once the reader leaves it.
    await input.fill("12abc");
    await input.blur();
    await expect(input).toHaveAttribute("aria-invalid", "true");
    await expect(input).toHaveAccessibleDescription(/Escribe un número, por ejemplo 1\.234,56\./);
  });

  test("the 10,000-row table renders only a window, sorts with aria-sort, and scrolls", async ({ page }) => {
    await openCatalogue(page);
    const table = page.getByRole("table", { name: "Activos de ejemplo" });
    await expect(table).toHaveAttribute("aria-rowcount", "10001");
    const rows = table.locator('[role="row"]');
    expect(await rows.count()).toBeLessThan(60);
    const header = table.getByRole("columnheader", { name: "Nombre" });
    await expect(header).toHaveAttribute("aria-sort", "none");
    await header.getByRole("button").click();
    await expect(header).toHaveAttribute("aria-sort", "ascending");
    await header.getByRole("button").click();
    await expect(header).toHaveAttribute("aria-sort", "descending");
    await expect(table.locator('[role="row"][aria-rowindex="2"] [role="cell"]').first()).toHaveText("Activo 10000");
    // Focus on the first row's actions, then the table scrolled to its end: that row stays in
    // the DOM, focused (ui/keepFocusedRow.ts), so the next Tab goes on from it, not from the page's top.
    const firstActions = table.getByRole("button", { name: "Acciones de Activo 10000" });
    await firstActions.focus();
    const viewport = page.getByRole("region", { name: "Activos de ejemplo" });
    await viewport.evaluate((el) => (el.scrollTop = el.scrollHeight));
    await expect(table.locator('[role="row"][aria-rowindex="10001"]')).toBeVisible();
    expect(await rows.count()).toBeLessThan(60);
    await expect(firstActions).toBeFocused();
    await expect(table.locator('[role="row"][aria-rowindex="2"]')).toHaveCount(1);
  });

  test("the catalogue is only in the e2e build, never in the production build", async ({ request }) => {
    const production = path.join(REPO_ROOT, "pwa", "dist");
    const productionFiles = filesUnder(production);
    expect(productionFiles.length).toBeGreaterThan(0);
    for (const file of productionFiles) {
      const text = readFileSync(file, "latin1");
      expect(text.includes(CATALOGUE_MARKER), file).toBe(false);
      expect(text.includes("e2e/catalogue"), file).toBe(false);
    }
    expect(existsSync(path.join(production, "e2e"))).toBe(false);
    // The search does find it where it is: the e2e build.
    expect(filesUnder(E2E_WEB_DIR).some((file) => readFileSync(file, "latin1").includes(CATALOGUE_MARKER))).toBe(true);

    // The server of the production build answers the page's address with the app itself.
    const base = process.env.E2E_BASE_URL;
    if (!base) throw new Error("E2E_BASE_URL is unset: global setup did not start the server");
    const [catalogue, app] = await Promise.all([request.get(`${base}${CATALOGUE_PATH}`), request.get(`${base}/index.html`)]);
    expect(await catalogue.text()).toBe(await app.text());
  });
});
