// Help end to end (real server binary, Chromium): the search finds accented text typed without
// accents or in capitals, the URL keeps it; a deep link opens a topic; the English texts after a
// language switch; after a first visit the help opens and searches with no network at all; axe in
// light and dark on a desktop and a phone.
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, syncTest as test } from "./support/sync-fixtures";

test.describe("help", () => {
  test.describe.configure({ timeout: 90_000 });

  test("searchable without accents, deep links to a topic, both languages, offline after a first visit, accessible", async ({ devices }) => {
    const { page, context } = await devices.open();
    const heading = page.getByRole("heading", { level: 1 });
    const search = page.getByTestId("help-search");
    const count = page.getByTestId("help-result-count");
    const entries = page.getByTestId("help-entry");
    await page.goto("/help");
    await expect(heading).toHaveText("Ayuda");
    await new AppShell(page).serviceWorkerReady();
    // The sidebar leads here.
    await expect(page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Ayuda" })).toHaveAttribute("href", "/help");

    // Accents and case do not matter.
    await search.fill("SIN CONEXION");
    await expect(count).toHaveText(/^\d+ resultados?$/);
    await expect(entries.filter({ hasText: "Sin conexión" }).first()).toBeVisible();
    await expect(page.locator("[data-entry='sync.offline']")).toBeVisible();
    await search.fill("llave de acceso huella");
    await expect(entries).toHaveCount(1);
    await expect(page.locator("[data-entry='security.passkeys']")).toContainText("huella");
    await expect(page).toHaveURL(/q=llave/);
    await search.fill("zzzz");
    await expect(page.getByTestId("help-no-results")).toContainText("Nada en la ayuda coincide con «zzzz»");
    await search.fill("");
    await expect(page.getByTestId("help-no-results")).toHaveCount(0);

    // A deep link to a topic: the section's heading is in view and has the focus.
    await page.goto("/help?topic=sync");
    const syncHeading = page.getByRole("heading", { level: 2, name: "Sincronización: qué significa cada estado" });
    await expect(syncHeading).toBeFocused();
    await expect(syncHeading).toBeInViewport();
    await expect(page.getByTestId("help-topic-sync")).toHaveAttribute("aria-current", "page");
    // A search in the URL.
    await page.goto("/help?q=albacea%20pdf");
    await expect(page.locator("[data-entry='binder.how']")).toBeVisible();
    await expect(page.getByTestId("help-section-faq")).toHaveCount(0);

    // English.
    await page.evaluate(() => window.localStorage.setItem("i18nextLng", "en"));
    await page.goto("/help");
    await expect(heading).toHaveText("Help");
    await search.fill("Offline");
    await expect(page.locator("[data-entry='sync.offline']")).toContainText("There is no connection to the server.");
    await page.getByTestId("help-topic-security").click();
    await expect(page.getByRole("heading", { level: 2, name: "Security" })).toBeFocused();
    await page.evaluate(() => window.localStorage.setItem("i18nextLng", "es"));
    await page.reload();
    await expect(heading).toHaveText("Ayuda");

    // Offline: the app and the help come from the service worker's cache.
    await context.setOffline(true);
    await page.goto("/help?topic=security");
    await expect(heading).toHaveText("Ayuda");
    await expect(page.getByRole("heading", { level: 2, name: "Seguridad" })).toBeFocused();
    await search.fill("frase de paso");
    await expect(page.locator("[data-entry='security.vault']")).toBeVisible();
    await context.setOffline(false);

    await forEachA11yVariant(page, async (variant) => {
      await page.goto("/help?topic=sync");
      await expect(heading).toHaveText("Ayuda");
      await expect(page.getByTestId("route-pending")).toHaveCount(0);
      await expectVariantApplied(page, variant);
      await page.screenshot({ path: test.info().outputPath(`help-${variant.theme}-${variant.viewport}.png`) });
      await expectNoSeriousA11yViolations(page, `help · ${variant.label}`);
    });
  });
});
