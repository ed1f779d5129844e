// The admin user list through the real app, against the fake /api/v1, which pages like the server:
// X-Total-Count and a Link rel="next" header.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import type { AdminUser } from "../../api/types";
import { createFakeServer, error, FAKE_PROOF, fakeMe, json, type FakeRoute } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

/** A listed user with the fields the tests do not care about filled in. */
function listed(u: Pick<AdminUser, "id" | "email" | "firstName" | "lastName" | "isAdmin" | "emailVerified" | "createdAt"> & Partial<AdminUser>): AdminUser {
  return { adminByConfig: false, disabled: false, disabledAt: null, lastSignInAt: null, subscriptionStatus: null, ...u };
}

/** `n` users, newest first: user30@…, user29@…, … */
function users(n: number): AdminUser[] {
  return Array.from({ length: n }, (_, i) => {
    const number = String(n - i).padStart(2, "0");
    return listed({
      id: `u${number}`,
      email: `user${number}@example.com`,
      firstName: "",
      lastName: "",
      isAdmin: false,
      emailVerified: true,
      createdAt: `2025-01-${number}T10:00:00Z`,
    });
  });
}

function adminServer(list: AdminUser[]) {
  return createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), adminUsers: list });
}

function shownEmails(): string[] {
  return [...screen.getByTestId("admin-users").querySelectorAll("tbody tr")].map((tr) => tr.querySelectorAll("td")[1]?.textContent ?? "");
}

const range = () => screen.getByTestId("admin-users-range").textContent;

// Each test renders the whole app (router, shell, 25 rows with their menus): generous time for a
// loaded machine; nothing here measures speed.
describe("the admin user list", { timeout: 20_000 }, () => {
  test("pages with Next and Previous as the server's headers say", async () => {
    const server = adminServer([
      listed({ id: "a", email: "ana@example.com", firstName: "Ana", lastName: "García", isAdmin: true, emailVerified: true, createdAt: "2025-02-01T10:00:00Z" }),
      ...users(30),
    ]);
    await renderApp("/admin/users", "en", server);
    await waitFor(() => expect(range()).toBe("1–25 of 31"));
    expect(shownEmails()).toHaveLength(25);
    expect(shownEmails()[0]).toBe("ana@example.com");
    const pager = screen.getByRole("navigation", { name: "Pages of users" });
    const previous = within(pager).getByRole("button", { name: "Previous" });
    const next = within(pager).getByRole("button", { name: "Next" });
    expect(previous.hasAttribute("disabled")).toBe(true);
    expect(next.hasAttribute("disabled")).toBe(false);
    expect(server.state.urls).toContain("/admin/users?limit=25&offset=0");

    fireEvent.click(next);
    await waitFor(() => expect(range()).toBe("26–31 of 31"));
    expect(shownEmails()).toEqual(["user06@example.com", "user05@example.com", "user04@example.com", "user03@example.com", "user02@example.com", "user01@example.com"]);
    expect(server.state.urls).toContain("/admin/users?limit=25&offset=25");
    await waitFor(() => expect(next.hasAttribute("disabled")).toBe(true));
    expect(previous.hasAttribute("disabled")).toBe(false);

    fireEvent.click(previous);
    await waitFor(() => expect(range()).toBe("1–25 of 31"));
    expect(shownEmails()[0]).toBe("ana@example.com");
  });

  test("searches by e-mail as the admin types, from the first page, and says when nothing matches", async () => {
    const server = adminServer([
      listed({ id: "a", email: "ana@example.com", firstName: "Ana", lastName: "", isAdmin: false, emailVerified: true, createdAt: "2025-02-01T10:00:00Z" }),
      listed({ id: "b", email: "juana@example.org", firstName: "", lastName: "", isAdmin: false, emailVerified: false, createdAt: "2025-02-02T10:00:00Z" }),
      ...users(30),
    ]);
    await renderApp("/admin/users", "es", server);
    await waitFor(() => expect(range()).toBe("1–25 de 32"));
    fireEvent.click(within(screen.getByRole("navigation", { name: "Páginas de usuarios" })).getByRole("button", { name: "Siguiente" }));
    await waitFor(() => expect(range()).toBe("26–32 de 32"));

    const search = screen.getByRole("searchbox", { name: "Buscar por correo" });
    fireEvent.change(search, { target: { value: "ANA" } });
    await waitFor(() => expect(range()).toBe("1–2 de 2"));
    expect(shownEmails()).toEqual(["ana@example.com", "juana@example.org"]);
    expect(server.state.urls).toContain("/admin/users?search=ANA&limit=25&offset=0");
    // One page only: no pager.
    expect(screen.queryByRole("navigation", { name: "Páginas de usuarios" })).toBeNull();

    fireEvent.change(search, { target: { value: "zzz" } });
    fireEvent.submit(search.closest("form")!);
    expect(await screen.findByText("Ningún usuario tiene un correo que contenga «zzz».")).toBeTruthy();
    expect(screen.queryByTestId("admin-users")).toBeNull();
    expect(range()).toBe("");
  });

  test("a smaller page size starts again at the first page", async () => {
    const server = adminServer(users(30));
    await renderApp("/admin/users", "en", server);
    await waitFor(() => expect(range()).toBe("1–25 of 30"));
    fireEvent.click(screen.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(range()).toBe("26–30 of 30"));
    fireEvent.change(screen.getByLabelText("Rows per page"), { target: { value: "10" } });
    await waitFor(() => expect(range()).toBe("1–10 of 30"));
    expect(server.state.urls.at(-1)).toBe("/admin/users?limit=10&offset=0");
  });

  test("with no users at all it says so", async () => {
    await renderApp("/admin/users", "en", adminServer([]));
    expect(await screen.findByText("There are no users yet.")).toBeTruthy();
  });

});

/** POST /admin/users/{id}/action as the server does it: grant_admin and revoke_admin need a recent
 * proof (state.reverified, which the fake POST /auth/reverify sets); nobody acts on themself. */
function actionRoute(selfId: string): FakeRoute {
  return (method, path, body, state) => {
    const m = /^\/admin\/users\/([^/]+)\/action$/.exec(path);
    if (method !== "POST" || !m) return undefined;
    const { action } = body as { action: string };
    if ((action === "grant_admin" || action === "revoke_admin") && !state.reverified) {
      return error(403, "reverification_required", "Confirm your identity to continue.");
    }
    if (m[1] === selfId) return error(403, "forbidden", "You cannot disable your own account or change your own admin role.");
    const i = state.adminUsers.findIndex((u) => u.id === m[1]);
    const user = state.adminUsers[i]!;
    const changed = {
      ...user,
      ...(action === "disable" ? { disabled: true, disabledAt: "2030-01-01T10:00:00Z" } : {}),
      ...(action === "enable" ? { disabled: false, disabledAt: null } : {}),
      ...(action === "grant_admin" ? { isAdmin: true } : {}),
      ...(action === "revoke_admin" ? { isAdmin: false } : {}),
    };
    state.adminUsers[i] = changed;
    return json(200, changed);
  };
}

const ME = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"; // fakeUser's id

function managedServer() {
  return createFakeServer({
    me: fakeMe({ user: { isAdmin: true } }),
    routes: [actionRoute(ME)],
    adminUsers: [
      listed({ id: "b", email: "bea@example.com", firstName: "Bea", lastName: "", isAdmin: false, emailVerified: true, createdAt: "2025-02-02T10:00:00Z",
        lastSignInAt: "2025-03-04T09:30:00Z", subscriptionStatus: "past_due" }),
      listed({ id: "c", email: "carl@example.com", firstName: "", lastName: "", isAdmin: true, adminByConfig: true, emailVerified: true, createdAt: "2025-02-03T10:00:00Z",
        subscriptionStatus: "incomplete" }),
      listed({ id: ME, email: "ana@example.com", firstName: "Ana", lastName: "García", isAdmin: true, emailVerified: true, createdAt: "2025-02-01T10:00:00Z" }),
    ],
  });
}

async function openActions(email: string, lang: "es" | "en" = "en") {
  const button = await screen.findByRole("button", { name: lang === "en" ? `Actions for ${email}` : `Acciones de ${email}` });
  await act(async () => {
    fireEvent.pointerDown(button, { button: 0, pointerType: "mouse" });
  });
  return screen.findByRole("menu");
}

const row = (email: string) => screen.getByTestId(`admin-user-${email}`);

describe("managing users", { timeout: 20_000 }, () => {
  test("shows each account's status, last sign-in and stored subscription status", async () => {
    await renderApp("/admin/users", "en", managedServer());
    await waitFor(() => expect(range()).toBe("1–3 of 3"));
    expect(row("bea@example.com").textContent).toContain("Active");
    expect(row("bea@example.com").textContent).toContain("Expired"); // past_due reads "expired"
    expect(row("bea@example.com").textContent).toMatch(/4 Mar 2025/);
    expect(row("carl@example.com").textContent).toContain("incomplete"); // other statuses as given
    expect(row("carl@example.com").textContent).toContain("Admin (server setting)");
    expect(row("ana@example.com").textContent).toContain("None");
    expect(row("ana@example.com").textContent).toContain("Never");
    expect(row("ana@example.com").textContent).toContain("You");
  });

  test("disables an account after confirming it", async () => {
    const server = managedServer();
    await renderApp("/admin/users", "es", server);
    await waitFor(() => expect(range()).toBe("1–3 de 3"));
    const menu = await openActions("bea@example.com", "es");
    await act(async () => fireEvent.click(within(menu).getByRole("menuitem", { name: "Desactivar cuenta" })));
    const dialog = await screen.findByRole("alertdialog", { name: "¿Desactivar bea@example.com?" });
    expect(server.state.calls).not.toContain("POST /admin/users/b/action"); // nothing before the confirmation
    // Bea's subscription is past_due: Stripe keeps charging her, and the dialog says so (audit finding 4).
    expect(within(dialog).getByTestId("admin-user-confirm-billing").textContent).toBe(
      "Atención: su suscripción sigue cobrándose (estado: Caducada). Desactivar la cuenta no la cancela en Stripe, y esta persona ya no podrá entrar para cancelarla: cancélala o pausa el cobro en el panel de Stripe.",
    );
    fireEvent.click(within(dialog).getByRole("button", { name: "Desactivar cuenta" }));
    expect(await screen.findByText("La cuenta de bea@example.com está desactivada; sus sesiones han terminado.")).toBeTruthy();
    expect(server.state.bodies[server.state.calls.indexOf("POST /admin/users/b/action")]).toEqual({ action: "disable" });
    await waitFor(() => expect(within(row("bea@example.com")).getByTestId("admin-user-status").textContent).toBe("Desactivada"));
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  test.each([
    ["active", true],
    ["trialing", true],
    ["canceled", false],
    ["incomplete", false],
    [null, false],
  ] as const)("the confirmation warns about billing only while a subscription still charges: %s", async (status, warns) => {
    const server = managedServer();
    server.state.adminUsers[0] = { ...server.state.adminUsers[0]!, subscriptionStatus: status };
    await renderApp("/admin/users", "en", server);
    await waitFor(() => expect(range()).toBe("1–3 of 3"));
    const menu = await openActions("bea@example.com");
    await act(async () => fireEvent.click(within(menu).getByRole("menuitem", { name: "Disable account" })));
    const dialog = await screen.findByRole("alertdialog", { name: "Disable bea@example.com?" });
    const warning = within(dialog).queryByTestId("admin-user-confirm-billing");
    expect(warning?.textContent.includes("Stripe Dashboard") ?? false).toBe(warns);
  });

  test("enables a disabled account after confirming it", async () => {
    const server = managedServer();
    server.state.adminUsers[0] = { ...server.state.adminUsers[0]!, disabled: true, disabledAt: "2025-03-05T10:00:00Z" };
    await renderApp("/admin/users", "es", server);
    await waitFor(() => expect(within(row("bea@example.com")).getByTestId("admin-user-status").textContent).toBe("Desactivada"));
    const menu = await openActions("bea@example.com", "es");
    await act(async () => fireEvent.click(within(menu).getByRole("menuitem", { name: "Activar cuenta" })));
    fireEvent.click(within(await screen.findByRole("alertdialog", { name: "¿Activar bea@example.com?" })).getByRole("button", { name: "Activar cuenta" }));
    await waitFor(() => expect(within(row("bea@example.com")).getByTestId("admin-user-status").textContent).toBe("Activa"));
  });

  test("granting admin asks the acting admin to prove who they are, then goes through", async () => {
    const server = managedServer();
    await renderApp("/admin/users", "en", server);
    await waitFor(() => expect(range()).toBe("1–3 of 3"));
    const menu = await openActions("bea@example.com");
    await act(async () => fireEvent.click(within(menu).getByRole("menuitem", { name: "Make admin" })));
    fireEvent.click(within(await screen.findByRole("alertdialog", { name: "Make bea@example.com an admin?" })).getByRole("button", { name: "Make admin" }));
    const proof = await screen.findByRole("dialog", { name: "Confirm it's you" });
    fireEvent.change(within(proof).getByLabelText("Password"), { target: { value: FAKE_PROOF.password } });
    fireEvent.click(within(proof).getByRole("button", { name: "Confirm" }));
    expect(await screen.findByText("bea@example.com is now an admin.")).toBeTruthy();
    await waitFor(() => expect(row("bea@example.com").textContent).toContain("Admin"));
    expect(server.state.adminUsers.find((u) => u.id === "b")?.isAdmin).toBe(true);
  });

  test("an admin cannot act on themself, nor revoke an admin set by the server's configuration", async () => {
    await renderApp("/admin/users", "en", managedServer());
    await waitFor(() => expect(range()).toBe("1–3 of 3"));
    const own = await openActions("ana@example.com");
    expect(within(own).getByRole("menuitem", { name: "Disable account" }).getAttribute("aria-disabled")).toBe("true");
    expect(within(own).getByRole("menuitem", { name: "Remove admin role" }).getAttribute("aria-disabled")).toBe("true");
    fireEvent.keyDown(own, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
    const carl = await openActions("carl@example.com");
    expect(within(carl).getByRole("menuitem", { name: "Admin by server setting (cannot be removed here)" }).getAttribute("aria-disabled")).toBe("true");
    // Nor disabled (the server refuses it with 409 too).
    expect(within(carl).getByRole("menuitem", { name: "Disable account" }).getAttribute("aria-disabled")).toBe("true");
  });

  test("lists the latest changes admins made to users", async () => {
    const server = managedServer();
    const audit: FakeRoute = (method, path) =>
      method === "GET" && path === "/admin/users/audit"
        ? json(200, [
            { id: "2", userId: "b", userEmail: "bea@example.com", action: "grant_admin", actorId: ME, actorEmail: "ana@example.com", at: "2025-03-05T10:00:00Z",
              before: { disabled: false, isAdmin: false }, after: { disabled: false, isAdmin: true } },
            { id: "1", userId: null, userEmail: "old@example.com", action: "disable", actorId: ME, actorEmail: "ana@example.com", at: "2025-03-04T10:00:00Z",
              before: { disabled: false, isAdmin: false }, after: { disabled: true, isAdmin: false } },
          ])
        : undefined;
    await renderApp("/admin/users", "es", createFakeServer({ ...server.state, routes: [audit, actionRoute(ME)] }));
    const list = await screen.findByTestId("admin-users-audit");
    expect(screen.getByRole("heading", { name: "Últimos cambios" })).toBeTruthy();
    const items = within(list).getAllByRole("listitem").map((li) => li.textContent);
    expect(items).toHaveLength(2);
    expect(items[0]).toMatch(/ana@example\.com hizo administrador a bea@example\.com$/);
    expect(items[1]).toMatch(/ana@example\.com desactivó a old@example\.com$/);
  });
});
