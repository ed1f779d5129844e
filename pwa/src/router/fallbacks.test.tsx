// The router's fallbacks through the real router, shell and translations (against the fake /api/v1).
// The dashboard reads the device database: the file gets one (jsdom has none).
import "../test/deviceDatabase";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { createFakeServer, error, fakeMe, json } from "../test/fakeServer";
import { renderApp } from "../test/renderApp";

/** A server whose GET /me fails with a 500 until `heal()` is called. */
function brokenMeServer(message: string) {
  let healed = false;
  const server = createFakeServer({
    handlers: {
      "GET /me": () => (healed ? json(200, fakeMe()) : error(500, "internal", message)),
    },
  });
  return { server, heal: () => (healed = true) };
}

describe("Something went wrong!", () => {
  test("hides the message until asked, in Spanish, inside the app shell", async () => {
    const { server } = brokenMeServer("la base de datos está cerrada");
    await renderApp("/", "es", server);
    const alert = await screen.findByRole("alert");
    expect(screen.getByRole("heading", { name: "¡Algo salió mal!" })).toBeTruthy();
    expect(screen.getByTestId("main-scroll").contains(alert)).toBe(true);
    const toggle = screen.getByRole("button", { name: "Mostrar error" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByText("la base de datos está cerrada")).toBeNull();

    fireEvent.click(toggle);
    const details = screen.getByText("la base de datos está cerrada");
    expect(toggle.textContent).toBe("Ocultar error");
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    expect(toggle.getAttribute("aria-controls")).toBe(details.id);

    fireEvent.click(toggle);
    expect(screen.queryByText("la base de datos está cerrada")).toBeNull();
    expect(toggle.textContent).toBe("Mostrar error");
    expect(document.title).toBe("¡Algo salió mal! · Patrimonio");
  });

  test("uses the English base texts and offers a way home", async () => {
    const { server } = brokenMeServer("boom");
    await renderApp("/profile", "en", server);
    expect(await screen.findByRole("heading", { name: "Something went wrong!" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Show Error" }));
    expect(screen.getByText("boom")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Hide Error" }));
    expect(screen.queryByText("boom")).toBeNull();
    expect(screen.getByRole("link", { name: "Go to the dashboard" }).getAttribute("href")).toBe("/");
  });

  test("Retry runs the failed route again and shows the screen once it works", async () => {
    const { server, heal } = brokenMeServer("temporarily down");
    await renderApp("/", "es", server);
    const retry = await screen.findByRole("button", { name: "Reintentar" });
    const failedCalls = server.state.calls.filter((c) => c === "GET /me").length;

    heal();
    await act(async () => {
      fireEvent.click(retry);
    });
    expect(await screen.findByTestId("dashboard-empty")).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "¡Algo salió mal!" })).toBeNull();
    expect(server.state.calls.filter((c) => c === "GET /me").length).toBeGreaterThan(failedCalls);
    await waitFor(() => expect(document.title).toBe("Panel · Patrimonio"));
  });

  test("Retry while it still fails keeps the error view", async () => {
    const { server } = brokenMeServer("still down");
    await renderApp("/", "en", server);
    await act(async () => {
      fireEvent.click(await screen.findByRole("button", { name: "Try again" }));
    });
    expect(await screen.findByRole("heading", { name: "Something went wrong!" })).toBeTruthy();
  });
});

describe("Not Found", () => {
  test.each([
    ["es", "No encontrado", "Ir al panel"],
    ["en", "Not Found", "Go to the dashboard"],
  ] as const)("an unknown path in %s shows %j inside the app shell for a signed-in user", async (language, title, home) => {
    await renderApp("/en-ningun-sitio", language);
    const main = await screen.findByTestId("main-scroll");
    await waitFor(() => expect(main.querySelector("h1")?.textContent).toBe(title));
    expect(screen.getByTestId("sidebar-title")).toBeTruthy();
    expect(screen.queryByTestId("dashboard-empty")).toBeNull();
    expect(screen.getByRole("link", { name: home }).getAttribute("href")).toBe("/");
    expect(document.title).toBe(`${title} · Patrimonio`);
  });

  test("a visitor gets it in the plain layout, without the app's sidebar", async () => {
    await renderApp("/en-ningun-sitio", "es", createFakeServer({ me: null }));
    expect(await screen.findByRole("heading", { name: "No encontrado" })).toBeTruthy();
    expect(screen.getByTestId("public-layout")).toBeTruthy();
    expect(screen.queryByTestId("sidebar-title")).toBeNull();
  });
});
