import { AppShell } from "./support/app-shell";
import { expect, test } from "./support/fixtures";

test.describe("the app shell", () => {
  test("opens in Spanish, switches to English, keeps it across a reload, and honours ?lng=en", async ({ page, browser, baseURL }) => {
    const shell = new AppShell(page);
    await shell.open();
    await expect(shell.sidebarTitle).toHaveText("Tu patrimonio");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(shell.dashboardEmpty).toContainText("Aún no tienes activos");

    await shell.chooseLanguage("en");
    await expect(shell.sidebarTitle).toHaveText("Your Wealth");
    await expect(shell.dashboardEmpty).toContainText("No assets yet");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");

    await page.reload();
    await expect(shell.sidebarTitle).toHaveText("Your Wealth");
    await expect(shell.languageSwitch).toHaveValue("en");

    // A brand-new Spanish-speaking visitor asking for ?lng=en gets English.
    const fresh = await browser.newContext({ locale: "es-ES", baseURL });
    const freshPage = await fresh.newPage();
    const freshShell = new AppShell(freshPage);
    await freshShell.open("/?lng=en");
    await expect(freshShell.sidebarTitle).toHaveText("Your Wealth");
    await fresh.close();
  });

  test("applies the dark theme and keeps it across a reload", async ({ page }) => {
    const shell = new AppShell(page);
    await page.emulateMedia({ colorScheme: "light" });
    await shell.open();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    const lightBackground = await shell.main.evaluate((el) => getComputedStyle(el).backgroundColor);

    await shell.chooseTheme("dark");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    const darkBackground = await shell.main.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(darkBackground).not.toBe(lightBackground);

    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(shell.themeSwitch).toHaveValue("dark");
  });

  test("the system theme follows the operating system live", async ({ page }) => {
    const shell = new AppShell(page);
    await page.emulateMedia({ colorScheme: "light" });
    await shell.open();
    await shell.chooseTheme("system");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await page.emulateMedia({ colorScheme: "light" });
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  });

  test("an unknown path shows Not Found and an unknown API path answers JSON 404", async ({ page, request }) => {
    const shell = new AppShell(page);
    await shell.open("/en-ningun-sitio");
    await expect(page.getByRole("heading", { name: "No encontrado" })).toBeVisible();
    await shell.chooseLanguage("en");
    await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();

    const res = await request.get("/api/v1/nope");
    expect(res.status()).toBe(404);
    expect(res.headers()["content-type"]).toContain("application/json");
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("not_found");
    expect(body.error.message).not.toBe("");
  });

  test("after one online visit the app shell opens with the network off", async ({ page, context }) => {
    const shell = new AppShell(page);
    await shell.open();
    await shell.serviceWorkerReady();

    await context.setOffline(true);
    await page.reload();
    await expect(shell.sidebarTitle).toHaveText("Tu patrimonio");
    await expect(shell.dashboardEmpty).toBeVisible();
    // A deep link that was never visited also opens offline (navigation fallback to the shell).
    await page.goto("/en-ningun-sitio");
    await expect(page.getByRole("heading", { name: "No encontrado" })).toBeVisible();
    // And the API is really unreachable, so the page above came from the service worker.
    const reachable = await page.evaluate(async () => {
      try {
        await fetch("/api/v1/health", { cache: "no-store" });
        return true;
      } catch {
        return false;
      }
    });
    expect(reachable).toBe(false);
    await context.setOffline(false);
  });

  test("security headers are on every answer", async ({ request }) => {
    for (const path of ["/", "/api/v1/health", "/api/v1/nope"]) {
      const res = await request.get(path);
      const headers = res.headers();
      expect(headers["x-content-type-options"], path).toBe("nosniff");
      expect(headers["referrer-policy"], path).toBeTruthy();
      const csp = headers["content-security-policy"] ?? "";
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toMatch(/script-src 'self'(?![^;]*unsafe-inline)/);
    }
  });
});

test.describe("health", () => {
  for (const store of ["sqlite", "postgres"] as const) {
    test(`answers 200 with the database reachable on ${store}`, async ({ request }) => {
      const base = store === "sqlite" ? process.env.E2E_BASE_URL : process.env.E2E_PG_BASE_URL;
      const res = await request.get(`${base}/api/v1/health`);
      expect(res.status()).toBe(200);
      const body = (await res.json()) as { status: string; version: string; database: { dialect: string; reachable: boolean } };
      expect(body.status).toBe("ok");
      expect(body.version).not.toBe("");
      expect(body.database).toEqual({ dialect: store, reachable: true });
    });
  }
});
