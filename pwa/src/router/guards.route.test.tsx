// The guards through the real router and screens (against the fake /api/v1).
// The dashboard reads the device database: the file gets one (jsdom has none).
import "../test/deviceDatabase";
import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { createFakeServer, fakeMe } from "../test/fakeServer";
import { renderApp } from "../test/renderApp";

describe("route guards, through the router", () => {
  test("a signed-out visitor asking for /profile lands on /signin with the way back", async () => {
    const { router } = await renderApp("/profile", "es", createFakeServer({ me: null }));
    expect(router.state.location.pathname).toBe("/signin");
    expect(router.state.location.search).toEqual({ redirect: "/profile" });
    expect(await screen.findByRole("heading", { name: "Iniciar sesión" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Correo electrónico" })).toBeTruthy();
    // The plain layout of the pages before the app: no sidebar whose links would bounce back here.
    expect(screen.getByTestId("public-layout")).toBeTruthy();
    expect(screen.queryByTestId("sidebar-title")).toBeNull();
    // Signed out: no user menu and no workspace switcher in the top bar.
    expect(screen.queryByTestId("user-menu-button")).toBeNull();
    expect(screen.queryByTestId("workspace-switcher")).toBeNull();
  });

  test("a user in the middle of onboarding who opens / resumes at the step the server keeps", async () => {
    const { router } = await renderApp("/", "en", createFakeServer({ me: fakeMe({ step: "personal_info", completed: false }) }));
    expect(router.state.location.pathname).toBe("/onboarding/personal-info");
    expect(await screen.findByRole("heading", { name: "Your personal identity" })).toBeTruthy();
  });

  test("the spec's /profile/ (with its trailing slash) opens the profile", async () => {
    await renderApp("/profile/", "es");
    expect(await screen.findByRole("heading", { name: "Perfil", level: 1 })).toBeTruthy();
  });

  test("a signed-in user who opens /signin goes to the dashboard", async () => {
    const { router } = await renderApp("/signin", "es");
    expect(router.state.location.pathname).toBe("/");
    expect(await screen.findByTestId("dashboard-empty")).toBeTruthy();
  });

  test("after sign-up the intro opens at #/security and points at the first step", async () => {
    const { router } = await renderApp("/onboarding#/security", "es", createFakeServer({ me: fakeMe({ step: "security_totp", completed: false }) }));
    expect(router.state.location.pathname).toBe("/onboarding");
    expect(await screen.findByText("Se tarda unos 3 minutos.")).toBeTruthy();
    const security = document.getElementById("onboarding-security");
    expect(security?.getAttribute("aria-current")).toBe("step");
    expect(security?.dataset.targeted).toBe("true");
    expect(screen.getByTestId("onboarding-start").getAttribute("href")).toBe("/onboarding/2fa");
  });

  test("/admin for a non-admin shows Access Denied with a way back", async () => {
    await renderApp("/admin", "es");
    expect(await screen.findByRole("heading", { name: "Acceso denegado" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Volver a tus activos" }).getAttribute("href")).toBe("/assets");
  });

  test("/admin for an admin opens the user list", async () => {
    const server = createFakeServer({
      me: fakeMe({ user: { isAdmin: true } }),
      handlers: {
        "GET /admin/users": () =>
          Response.json([
            { id: "u1", email: "ana@example.com", firstName: "Ana", lastName: "García", isAdmin: true, emailVerified: true, createdAt: "2025-01-02T10:00:00Z" },
            { id: "u2", email: "luis@example.com", firstName: "", lastName: "", isAdmin: false, emailVerified: false, createdAt: "2025-01-03T10:00:00Z" },
          ]),
      },
    });
    const { router } = await renderApp("/admin", "en", server);
    expect(router.state.location.pathname).toBe("/admin/users");
    const table = await screen.findByTestId("admin-users");
    const rows = [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].slice(0, 3).map((td) => td.textContent));
    expect(rows).toEqual([
      ["Ana García", "ana@example.com", "Admin"],
      ["—", "luis@example.com", "User"],
    ]);
  });
});
