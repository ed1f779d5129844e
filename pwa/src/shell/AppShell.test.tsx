// The dashboard reads the device database: the file gets one (jsdom has none).
import "../test/deviceDatabase";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, test, vi } from "vitest";
import { SESSION_CHANGED_EVENT } from "../auth/signOut";
import { createFakeServer, fakeMe } from "../test/fakeServer";
import { renderApp } from "../test/renderApp";
import { queryKeys } from "../api/queries";
import { PHONE_QUERY } from "./useMediaQuery";

describe("the app shell", () => {
  test("has the header, navigation and main landmarks, headed in Spanish", async () => {
    await renderApp("/", "es");
    const topbar = await screen.findByTestId("topbar");
    expect(topbar.tagName).toBe("HEADER");
    expect(topbar.closest("main")).toBeNull();
    expect(screen.getByRole("navigation", { name: "Navegación principal" })).toBeTruthy();
    expect(screen.getByRole("main")).toBe(screen.getByTestId("main-scroll"));
    expect(screen.getByTestId("sidebar-title").textContent).toBe("Tu patrimonio");
    // Nothing of the sidebar outside a landmark (axe's "region"): the app's name heads the navigation.
    expect(within(screen.getByRole("navigation", { name: "Navegación principal" })).getByText("Patrimonio")).toBeTruthy();
  });

  test("lists only the screens that exist", async () => {
    await renderApp("/", "en");
    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    expect([...nav.querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Dashboard", "/"],
      ["Asset List", "/assets"],
      ["Wealth Map", "/map"],
      ["Tasks", "/tasks"],
      ["Liabilities", "/liabilities"],
      ["Flows", "/flows"],
      ["Beneficiaries", "/beneficiaries"],
      ["Logins", "/logins"],
      ["Help", "/help"],
    ]);
  });

  test("switching the language re-renders the shell and sets <html lang>", async () => {
    const { i18n } = await renderApp("/", "es");
    const { bindDocumentLanguage } = await import("../i18n/i18n");
    bindDocumentLanguage(i18n, document.documentElement);
    const select = screen.getByTestId("language-switch");
    expect([...select.querySelectorAll("option")].map((o) => [o.value, o.textContent])).toEqual([
      ["es", "Español"],
      ["en", "English"],
    ]);
    await act(async () => {
      fireEvent.change(select, { target: { value: "en" } });
    });
    expect(screen.getByTestId("sidebar-title").textContent).toBe("Your Wealth");
    expect((await screen.findByTestId("dashboard-empty")).textContent).toContain("No assets yet");
    expect(document.documentElement.lang).toBe("en");
    expect(localStorage.getItem("i18nextLng")).toBe("en");
  });

  test("the menu button opens the sidebar drawer and Escape closes it", async () => {
    await renderApp("/", "es");
    const button = screen.getByRole("button", { name: "Abrir menú" });
    const sidebar = document.getElementById(button.getAttribute("aria-controls") ?? "");
    expect(sidebar?.dataset.open).toBe("false");

    fireEvent.click(button);
    expect(button.getAttribute("aria-expanded")).toBe("true");
    expect(button.getAttribute("aria-label")).toBe("Cerrar menú");
    expect(sidebar?.dataset.open).toBe("true");
    expect(document.activeElement?.textContent).toBe("Panel");

    fireEvent.keyDown(document, { key: "Escape" });
    expect(sidebar?.dataset.open).toBe("false");
    expect(document.activeElement).toBe(button);
  });

  test("the skip link moves focus to the main area", async () => {
    await renderApp("/", "en");
    fireEvent.click(screen.getByRole("link", { name: "Skip to content" }));
    expect(document.activeElement).toBe(screen.getByTestId("main-scroll"));
  });
});

/** Makes window.matchMedia answer `matches` for the phone query (jsdom has no matchMedia). */
function emulatePhone(phone: boolean) {
  window.matchMedia = ((query: string) => ({
    matches: query === PHONE_QUERY ? phone : false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

describe("the shell on a phone and on a desktop", () => {
  const original = window.matchMedia;
  afterEach(() => {
    window.matchMedia = original;
  });

  test("on a phone the top bar keeps the workspace by name; language and theme move into the drawer", async () => {
    emulatePhone(true);
    await renderApp("/", "es");
    const banner = await screen.findByTestId("topbar");
    const switcher = within(banner).getByRole("combobox", { name: "Espacio de trabajo" }) as HTMLSelectElement;
    expect(switcher.selectedOptions[0]?.textContent).toBe("Ana (principal)");
    expect(within(banner).queryByTestId("language-switch")).toBeNull();
    expect(within(banner).queryByTestId("theme-switch")).toBeNull();
    const sidebar = document.getElementById(screen.getByRole("button", { name: "Abrir menú" }).getAttribute("aria-controls") ?? "");
    expect(sidebar?.querySelector('[data-testid="language-switch"]')).toBeTruthy();
    expect(sidebar?.querySelector('[data-testid="theme-switch"]')).toBeTruthy();
    // One of each in the whole page.
    expect(screen.getAllByTestId("language-switch")).toHaveLength(1);
  });

  test("on a desktop the language and theme switches are in the top bar", async () => {
    emulatePhone(false);
    await renderApp("/", "en");
    const banner = await screen.findByTestId("topbar");
    expect(within(banner).getByTestId("language-switch")).toBeTruthy();
    expect(within(banner).getByTestId("theme-switch")).toBeTruthy();
    expect(screen.getAllByTestId("theme-switch")).toHaveLength(1);
  });
});

describe("the shell's footer and the document title", () => {
  test("links the legal pages", async () => {
    await renderApp("/", "es");
    const legal = await screen.findByRole("navigation", { name: "Información legal" });
    expect([...legal.querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Condiciones de uso", "/tos"],
      ["Privacidad", "/privacy"],
    ]);
  });

  test("names the screen in the title, translated, and follows a language change", async () => {
    const { i18n, router } = await renderApp("/", "es");
    await waitFor(() => expect(document.title).toBe("Panel · Patrimonio"));
    await act(async () => {
      await i18n.changeLanguage("en");
    });
    expect(document.title).toBe("Dashboard · Patrimonio");
    await act(() => router.navigate({ to: "/profile" }));
    await waitFor(() => expect(document.title).toBe("Profile · Patrimonio"));
    await act(() => router.navigate({ to: "/workspaces" }));
    await waitFor(() => expect(document.title).toBe("Workspaces · Patrimonio"));
  });

  test("the sign-in page has its own title and no app shell", async () => {
    await renderApp("/signin", "es", createFakeServer({ me: null }));
    await waitFor(() => expect(document.title).toBe("Iniciar sesión · Patrimonio"));
    expect(screen.queryByTestId("app-shell")).toBeNull();
    expect(screen.getByTestId("public-layout")).toBeTruthy();
  });
});

describe("the plain layout", () => {
  test("a user in onboarding can sign out from it, and only that: the app's screens are not open yet", async () => {
    await renderApp("/onboarding/personal-info", "es", createFakeServer({ me: fakeMe({ step: "personal_info", completed: false }) }));
    expect(await screen.findByTestId("public-layout")).toBeTruthy();
    expect(screen.queryByTestId("sidebar-title")).toBeNull();
    const button = await screen.findByTestId("user-menu-button");
    fireEvent.keyDown(button, { key: "Enter" });
    const menu = await screen.findByRole("menu");
    expect(within(menu).getAllByRole("menuitem").map((i) => i.textContent)).toEqual(["Cerrar sesión"]);
  });

  test("a visitor has no user menu", async () => {
    await renderApp("/signin", "es", createFakeServer({ me: null }));
    expect(await screen.findByTestId("public-layout")).toBeTruthy();
    expect(screen.queryByTestId("user-menu-button")).toBeNull();
  });
});

describe("a session that ends while a screen is open", () => {
  test("gives way to sign-in at once, keeping the way back", async () => {
    const { router, queryClient, server } = await renderApp("/profile", "es");
    await screen.findByTestId("app-shell");
    expect(router.state.location.pathname).toBe("/profile");
    // The server ended the session (as the sync socket's 4401 makes the shell ask again).
    server.state.me = null;
    await act(() => queryClient.invalidateQueries({ queryKey: queryKeys.me }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/signin"));
    expect(router.state.location.search).toMatchObject({ redirect: "/profile" });
  });

  test("tells the tab, so that what it unlocked for that session locks", async () => {
    const { queryClient, server } = await renderApp("/profile", "es");
    await screen.findByTestId("app-shell");
    const changed = vi.fn();
    window.addEventListener(SESSION_CHANGED_EVENT, changed);
    try {
      expect(changed).not.toHaveBeenCalled();
      server.state.me = null;
      await act(() => queryClient.invalidateQueries({ queryKey: queryKeys.me }));
      await waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    } finally {
      window.removeEventListener(SESSION_CHANGED_EVENT, changed);
    }
  });
});
