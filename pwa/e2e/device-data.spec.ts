// The device database that cannot be read, in a real browser: IndexedDB made to fail by an init
// script (as a browser that refuses storage does) or taken away (a browser without it). The screens
// that read device data say so, accessibly in light and dark, and come back after "Try again".
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, test } from "./support/fixtures";

test.describe("a device database that cannot be read", () => {
  test.slow();

  test("an open the browser refuses: the screens say why, with a retry that opens it once it works", async ({ page }) => {
    // IndexedDB refuses every open until the page sets window.__idbWorks (a private window that
    // refuses storage throws InvalidStateError).
    await page.addInitScript(() => {
      const open = IDBFactory.prototype.open;
      IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory["open"]>) {
        if (!(window as { __idbWorks?: boolean }).__idbWorks) throw new DOMException("Storage is refused here.", "InvalidStateError");
        return open.apply(this, args);
      };
    });
    await forEachA11yVariant(page, async (variant) => {
      await page.goto("/");
      const alert = page.getByTestId("device-data-failed");
      await expect(alert).toBeVisible();
      await expect(alert).toHaveAttribute("role", "alert");
      await expect(alert.getByRole("heading")).toHaveText("No se han podido abrir los datos de este dispositivo");
      await expect(alert).toContainText("Sal del modo privado");
      await expect(page.locator("main h1")).toHaveText("Panel");
      await expect(page.getByTestId("dashboard-empty")).toHaveCount(0);
      await expectVariantApplied(page, variant);
      await expectNoSeriousA11yViolations(page, `device database refused · ${variant.label}`);
    });

    // Another screen that reads device data says the same.
    await page.goto("/assets/");
    await expect(page.getByTestId("device-data-failed")).toBeVisible();
    await expect(page.locator("main h1")).toHaveText("Activos");

    // Storage allowed again: Try again opens the database and the screen shows.
    await page.evaluate(() => ((window as { __idbWorks?: boolean }).__idbWorks = true));
    await page.getByRole("button", { name: "Volver a intentarlo" }).click();
    await expect(page.getByTestId("device-data-failed")).toHaveCount(0);
    await expect(page.getByTestId("device-data-gate")).toHaveCount(0);
  });

  test("a browser without IndexedDB: the dashboard says this browser cannot keep the data, not \"no assets yet\"", async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(window, "indexedDB", { value: undefined, configurable: true });
    });
    await forEachA11yVariant(page, async (variant) => {
      await page.goto("/");
      const alert = page.getByTestId("device-data-unsupported");
      await expect(alert).toBeVisible();
      await expect(alert.getByRole("heading")).toHaveText("Este navegador no puede guardar tus datos en este dispositivo");
      await expect(alert).toContainText("otro navegador actualizado");
      await expect(page.getByTestId("dashboard-empty")).toHaveCount(0);
      await expectVariantApplied(page, variant);
      await expectNoSeriousA11yViolations(page, `browser without IndexedDB · ${variant.label}`);
    });
  });
});
