import { act, fireEvent, screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { renderApp } from "../test/renderApp";

describe("the app shell", () => {
  test("has the header, navigation and main landmarks, headed in Spanish", async () => {
    await renderApp("/", "es");
    expect(screen.getByRole("banner")).toBeTruthy();
    expect(screen.getByRole("navigation", { name: "Navegación principal" })).toBeTruthy();
    expect(screen.getByRole("main")).toBe(screen.getByTestId("main-scroll"));
    expect(screen.getByTestId("sidebar-title").textContent).toBe("Tu patrimonio");
  });

  test("lists only the screens that exist", async () => {
    await renderApp("/", "en");
    const nav = screen.getByRole("navigation", { name: "Main navigation" });
    expect([...nav.querySelectorAll("a")].map((a) => [a.textContent, a.getAttribute("href")])).toEqual([["Dashboard", "/"]]);
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
    expect(screen.getByTestId("dashboard-empty").textContent).toContain("No assets yet");
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
