// The admin user list through the real app, against the fake /api/v1, which pages like the server:
// X-Total-Count and a Link rel="next" header.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import type { AdminUser } from "../../api/types";
import { createFakeServer, fakeMe } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

/** `n` users, newest first: user30@…, user29@…, … */
function users(n: number): AdminUser[] {
  return Array.from({ length: n }, (_, i) => {
    const number = String(n - i).padStart(2, "0");
    return {
      id: `u${number}`,
      email: `user${number}@example.com`,
      firstName: "",
      lastName: "",
      isAdmin: false,
      emailVerified: true,
      createdAt: `2025-01-${number}T10:00:00Z`,
    };
  });
}

function adminServer(list: AdminUser[]) {
  return createFakeServer({ me: fakeMe({ user: { isAdmin: true } }), adminUsers: list });
}

function shownEmails(): string[] {
  return [...screen.getByTestId("admin-users").querySelectorAll("tbody tr")].map((tr) => tr.querySelectorAll("td")[1]?.textContent ?? "");
}

const range = () => screen.getByTestId("admin-users-range").textContent;

describe("the admin user list", () => {
  test("pages with Next and Previous as the server's headers say", async () => {
    const server = adminServer([
      { id: "a", email: "ana@example.com", firstName: "Ana", lastName: "García", isAdmin: true, emailVerified: true, createdAt: "2025-02-01T10:00:00Z" },
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
      { id: "a", email: "ana@example.com", firstName: "Ana", lastName: "", isAdmin: false, emailVerified: true, createdAt: "2025-02-01T10:00:00Z" },
      { id: "b", email: "juana@example.org", firstName: "", lastName: "", isAdmin: false, emailVerified: false, createdAt: "2025-02-02T10:00:00Z" },
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
