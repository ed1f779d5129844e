import type { Locator, Page } from "@playwright/test";

/** Page model of the app shell: sidebar, top bar switches, main area. */
export class AppShell {
  readonly sidebarTitle: Locator;
  readonly languageSwitch: Locator;
  readonly themeSwitch: Locator;
  readonly main: Locator;
  readonly dashboardEmpty: Locator;

  constructor(readonly page: Page) {
    this.sidebarTitle = page.getByTestId("sidebar-title");
    this.languageSwitch = page.getByTestId("language-switch");
    this.themeSwitch = page.getByTestId("theme-switch");
    this.main = page.getByTestId("main-scroll");
    this.dashboardEmpty = page.getByTestId("dashboard-empty");
  }

  async open(path = "/"): Promise<void> {
    await this.page.goto(path);
    await this.sidebarTitle.waitFor();
  }

  async chooseLanguage(lng: "es" | "en"): Promise<void> {
    await this.languageSwitch.selectOption(lng);
  }

  async chooseTheme(theme: "light" | "dark" | "system"): Promise<void> {
    await this.themeSwitch.selectOption(theme);
  }

  /** Resolves once a service worker is active for this page (the app shell is precached). */
  async serviceWorkerReady(): Promise<void> {
    await this.page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return registration.active?.state;
    });
  }
}
