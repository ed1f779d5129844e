import { createOnboardedAccount, storageStateFor } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { UserMenu } from "./support/auth-pages";
import { expect, test, visitorTest } from "./support/fixtures";
import { accountAt, contextWith } from "./support/onboarding";

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

  test("offline, the online-only screens say they need a connection instead of loading for ever", async ({ page, context }) => {
    const shell = new AppShell(page);
    await shell.open();
    await shell.serviceWorkerReady();
    const me = (await (await page.request.get("/api/v1/me")).json()) as { workspaces: { id: string; kind: string }[] };
    const personal = me.workspaces.find((w) => w.kind === "personal");
    expect(personal).toBeTruthy();

    await context.setOffline(true);
    const notice = page.getByTestId("needs-connection");
    // The list of workspaces is on the device (the copy of /me): shown, with what needs the network.
    await page.goto("/workspaces");
    await expect(page.getByTestId("workspace-row")).toHaveCount(me.workspaces.length);
    await expect(notice).toContainText("Crear un espacio, responder a una invitación o cambiar los miembros necesita conexión a internet.");
    await expect(page.getByTestId("route-pending")).toHaveCount(0);
    for (const [path, text] of [
      ["/profile/billing", "Tu suscripción y tus pagos están en el servidor"],
      ["/profile/", "para cambiar tu nombre, tu correo, tu contraseña o tus llaves de acceso hace falta conexión a internet"],
      ["/connect?kind=bank", "Para conectar una cuenta hace falta conexión a internet."],
    ] as const) {
      await page.goto(path);
      await expect(notice, path).toContainText(text);
      await expect(page.getByTestId("route-pending"), path).toHaveCount(0);
    }
    // A workspace's members are on the server only: said at once, under the screen's heading.
    await page.goto(`/workspaces/${personal!.id}`);
    await expect(page.getByRole("heading", { level: 1, name: "Este espacio de trabajo no está disponible" })).toBeVisible();
    await expect(page.getByTestId("workspace-offline")).toContainText("para verlos o cambiarlos hace falta conexión a internet");
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

test.describe("the shell, as a new user meets it", () => {
  test("each screen names itself in the document title, in the page's language", async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open();
    await expect(page).toHaveTitle("Panel · Patrimonio");
    await shell.chooseLanguage("en");
    await expect(page).toHaveTitle("Dashboard · Patrimonio");
    await page.goto("/profile/");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle("Profile · Patrimonio");
    await shell.chooseLanguage("es");
    await expect(page).toHaveTitle("Perfil · Patrimonio");
    await page.goto("/en-ningun-sitio");
    await expect(page).toHaveTitle("No encontrado · Patrimonio");
  });

  test("the sidebar lists the spec's screens, in the spec's order", async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open();
    const nav = page.getByRole("navigation", { name: "Navegación principal" });
    // Beneficiaries carries the count of what to review for the estate (a badge after the name).
    await expect(nav.getByRole("link")).toHaveText([
      "Panel",
      "Lista de activos",
      "Mapa patrimonial",
      "Tareas",
      "Pasivos",
      "Flujos",
      /^Beneficiarios/,
      "Accesos",
      "Ayuda",
    ]);
    await expect(nav.getByRole("link", { name: "Panel" })).toHaveAttribute("aria-current", "page");
  });

  test("Something went wrong! offers a retry that works once the server answers again", async ({ page }) => {
    let failing = true;
    await page.route("**/api/v1/me", async (route) => {
      if (!failing) return route.continue();
      await route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "fallo de prueba" } }),
      });
    });
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "¡Algo salió mal!" })).toBeVisible();
    await expect(page).toHaveTitle("¡Algo salió mal! · Patrimonio");
    await page.getByRole("button", { name: "Mostrar error" }).click();
    await expect(page.getByText("fallo de prueba")).toBeVisible();
    await expect(page.getByRole("link", { name: "Ir al panel" })).toHaveAttribute("href", "/");

    failing = false;
    await page.getByRole("button", { name: "Reintentar" }).click();
    await expect(new AppShell(page).dashboardEmpty).toBeVisible();
    await expect(page.getByRole("heading", { name: "¡Algo salió mal!" })).toHaveCount(0);
    await expect(page).toHaveTitle("Panel · Patrimonio");
  });

  // A common phone (390 px) and the narrowest width WCAG 1.4.10 (reflow) asks for (320 px).
  for (const size of [{ width: 390, height: 844 }, { width: 320, height: 640 }]) {
    test(`on a ${size.width} px phone the top bar shows the workspace's name; language and theme are in the drawer`, async ({ page }, testInfo) => {
      await page.setViewportSize(size);
      const shell = new AppShell(page);
      await page.goto("/");
      await expect(shell.dashboardEmpty).toBeVisible();
      const topbar = page.getByTestId("topbar");
      const switcher = topbar.getByTestId("workspace-switcher");
      await expect(switcher).toBeVisible();
      // The selected workspace's name is drawn whole, readable (a copy over the select, which stays
      // what is clicked): wide enough and not a transparent text.
      const selected = await switcher.evaluate((el) => {
        const select = el as HTMLSelectElement;
        const shown = select.parentElement!.querySelector<HTMLElement>('[data-slot="shown"]')!;
        const style = getComputedStyle(shown);
        return { text: select.selectedOptions[0]?.textContent ?? "", shown: shown.textContent, width: select.getBoundingClientRect().width, color: style.color };
      });
      expect(selected.text).toMatch(/\(principal\)$/);
      expect(selected.shown).toBe(selected.text);
      expect(selected.width).toBeGreaterThanOrEqual(120);
      expect(selected.color).not.toMatch(/rgba\(0, 0, 0, 0\)|transparent/);
      await expect(topbar.getByTestId("language-switch")).toHaveCount(0);
      await expect(topbar.getByTestId("theme-switch")).toHaveCount(0);
      // Nothing in the bar overflows the screen.
      const overflow = await topbar.evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath("phone-topbar.png") });

      await page.getByRole("button", { name: "Abrir menú" }).click();
      const drawer = page.locator("#app-sidebar");
      await expect(drawer.getByTestId("language-switch")).toBeVisible();
      await expect(drawer.getByTestId("theme-switch")).toBeVisible();
      await expect(drawer.getByRole("link", { name: "Privacidad" })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath("phone-drawer.png") });
      await drawer.getByTestId("language-switch").selectOption("en");
      await expect(shell.sidebarTitle).toHaveText("Your Wealth");
    });
  }

  test("the legal pages open signed in, inside the app, from the shell's footer", async ({ page }) => {
    const shell = new AppShell(page);
    await shell.open();
    await page.getByRole("navigation", { name: "Información legal" }).getByRole("link", { name: "Condiciones de uso" }).click();
    await expect(page.getByRole("heading", { name: "Condiciones de uso", level: 1 })).toBeVisible();
    await expect(shell.sidebarTitle).toBeVisible();
    await expect(page).toHaveTitle("Condiciones de uso · Patrimonio");
  });
});

visitorTest.describe("signed out", () => {
  visitorTest("sign-in and sign-up have a plain layout, without the app's sidebar, and link the legal pages", async ({ page }, testInfo) => {
    await page.goto("/signup");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page).toHaveTitle("Crear cuenta · Patrimonio");
    await expect(page.getByTestId("sidebar-title")).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Panel" })).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath("signup.png"), fullPage: true });
    // The sign-up form says what creating an account accepts, linking both pages.
    const form = page.getByRole("main");
    await expect(form.getByRole("link", { name: "condiciones de uso" })).toHaveAttribute("href", "/tos");
    await expect(form.getByRole("link", { name: "política de privacidad" })).toHaveAttribute("href", "/privacy");
    await form.getByRole("link", { name: "condiciones de uso" }).click();
    await expect(page.getByRole("heading", { name: "Condiciones de uso", level: 1 })).toBeVisible();
    await page.goBack();
    await page.getByRole("contentinfo").getByRole("link", { name: "Privacidad" }).click();
    await expect(page.getByRole("heading", { name: "Política de privacidad", level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/privacy\/?$/);

    await page.goto("/signin");
    await expect(page).toHaveTitle("Iniciar sesión · Patrimonio");
    await expect(page.getByTestId("sidebar-title")).toHaveCount(0);
  });

  visitorTest("the legal pages deep-link in Spanish and in English", async ({ page }) => {
    await page.goto("/tos/");
    await expect(page.getByRole("heading", { name: "Condiciones de uso", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Suscripción y pagos" })).toBeVisible();
    await page.getByTestId("language-switch").selectOption("en");
    await expect(page.getByRole("heading", { name: "Terms of service", level: 1 })).toBeVisible();
    await expect(page).toHaveTitle("Terms of service · Patrimonio");
    await page.goto("/privacy/");
    await expect(page.getByRole("heading", { name: "Privacy policy", level: 1 })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Cookies" })).toBeVisible();
  });

  visitorTest("an unknown path shows Not Found in the plain layout", async ({ page }) => {
    await page.goto("/no-existe");
    await expect(page.getByRole("heading", { name: "No encontrado" })).toBeVisible();
    await expect(page.getByTestId("sidebar-title")).toHaveCount(0);
  });
});

test.describe("onboarding in the plain layout", () => {
  test("keeps the device database: the provinces of Spain come from its enumerations", async ({ browser, baseURL }) => {
    const { token, path } = await accountAt(baseURL!, "personal_info");
    const context = await contextWith(browser, baseURL!, token);
    const page = await context.newPage();
    await page.goto(path);
    await expect(page.getByTestId("public-layout")).toBeVisible();
    await expect(page.getByTestId("sidebar-title")).toHaveCount(0);
    await expect(page).toHaveTitle("Datos personales · Patrimonio");
    const country = page.getByRole("combobox", { name: "País de residencia" });
    await country.fill("Espa");
    await page.getByRole("option", { name: /España/ }).click();
    const province = page.getByRole("combobox", { name: "Provincia o estado" });
    await province.fill("Madr");
    await expect(page.getByRole("option", { name: /Madrid/ })).toBeVisible();
    await context.close();
  });
});

test.describe("ready to work offline", () => {
  test("is said once per install, not again after signing out", async ({ browser, baseURL }) => {
    const account = await createOnboardedAccount(baseURL!, `offline-once-${Date.now()}@example.com`, "offline once passphrase 5512");
    const context = await browser.newContext({ baseURL, locale: "es-ES", storageState: storageStateFor(baseURL!, account) });
    const page = await context.newPage();
    const shell = new AppShell(page);
    await shell.open();
    await expect(page.getByText("Lista para usar sin conexión")).toBeVisible();
    await shell.serviceWorkerReady();
    expect(await page.evaluate(() => localStorage.getItem("patrimonio.offlineReadyShown"))).toBe("1");

    await new UserMenu(page).choose("Cerrar sesión");
    await expect(page).toHaveURL(/\/signin/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Clear-Site-Data removed the worker; a new one installs on this page without a new toast.
    await shell.serviceWorkerReady();
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await shell.serviceWorkerReady();
    expect(await page.evaluate(() => localStorage.getItem("patrimonio.offlineReadyShown"))).toBe("1");
    await expect(page.getByText("Lista para usar sin conexión")).toHaveCount(0);
    await context.close();
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
