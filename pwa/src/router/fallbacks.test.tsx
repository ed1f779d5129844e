import { fireEvent, render, screen } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { createI18n, type Language } from "../i18n/i18n";
import { renderApp } from "../test/renderApp";
import { RouteError } from "./fallbacks";

function renderError(error: unknown, language: Language) {
  return render(
    <I18nextProvider i18n={createI18n({ lng: language })}>
      <RouteError error={error as Error} />
    </I18nextProvider>,
  );
}

describe("RouteError", () => {
  test("says something went wrong and hides the message until asked, in Spanish", () => {
    renderError(new Error("database is closed"), "es");
    expect(screen.getByRole("heading", { name: "¡Algo salió mal!" })).toBeTruthy();
    const toggle = screen.getByRole("button", { name: "Mostrar error" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("database is closed")).toBeNull();

    fireEvent.click(toggle);
    expect(screen.getByText("database is closed")).toBeTruthy();
    expect(toggle.textContent).toBe("Ocultar error");
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(toggle.getAttribute("aria-controls")).toBe(screen.getByText("database is closed").id);

    fireEvent.click(toggle);
    expect(screen.queryByText("database is closed")).toBeNull();
    expect(toggle.textContent).toBe("Mostrar error");
  });

  test("uses the English base texts in English", () => {
    renderError(new Error("boom"), "en");
    expect(screen.getByRole("heading", { name: "Something went wrong!" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Show Error" }));
    expect(screen.getByText("boom")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Hide Error" }));
    expect(screen.queryByText("boom")).toBeNull();
  });

  test("shows a thrown value that is not an Error as text", () => {
    renderError("plain string failure", "en");
    fireEvent.click(screen.getByRole("button", { name: "Show Error" }));
    expect(screen.getByText("plain string failure")).toBeTruthy();
  });
});

describe("NotFound, through the real router", () => {
  test.each([
    ["es", "No encontrado", "Ir al panel"],
    ["en", "Not Found", "Go to the dashboard"],
  ] as const)("an unknown path in %s shows %j inside the app shell", async (language, title, home) => {
    await renderApp("/en-ningun-sitio", language);
    const main = screen.getByTestId("main-scroll");
    expect(main.querySelector("h1")?.textContent).toBe(title);
    expect(screen.getByTestId("sidebar-title")).toBeTruthy();
    expect(screen.queryByTestId("dashboard-empty")).toBeNull();
    expect(screen.getByRole("link", { name: home }).getAttribute("href")).toBe("/");
  });
});
