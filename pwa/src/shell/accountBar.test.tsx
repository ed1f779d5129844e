// The top bar of a signed-in user: the workspace switcher and the user menu (through the real app).
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import type { Workspace } from "../api/types";
import { createFakeServer, fakeMe, PERSONAL_WORKSPACE } from "../test/fakeServer";
import { renderApp } from "../test/renderApp";
import { ACTIVE_WORKSPACE_KEY, pickActiveWorkspace } from "../workspace/activeWorkspace";

const TEAM: Workspace = { id: "w-team", name: "Familia García", kind: "team", role: "editor" };

describe("the workspace switcher", () => {
  test("lists the personal and team workspaces and remembers the choice on the device", async () => {
    await renderApp("/", "es", createFakeServer({ me: fakeMe({ workspaces: [PERSONAL_WORKSPACE, TEAM] }) }));
    const select = (await screen.findByRole("combobox", { name: "Espacio de trabajo" })) as HTMLSelectElement;
    expect([...select.querySelectorAll("optgroup")].map((g) => [g.label, [...g.querySelectorAll("option")].map((o) => o.textContent)])).toEqual([
      ["Personales", ["Ana (principal)"]],
      ["De equipo", ["Familia García"]],
    ]);
    expect(select.value).toBe("w-personal");
    await act(async () => {
      fireEvent.change(select, { target: { value: "w-team" } });
    });
    expect(select.value).toBe("w-team");
    expect(localStorage.getItem(ACTIVE_WORKSPACE_KEY)).toBe("w-team");
  });

  test("a remembered workspace is chosen again; one the user left falls back to the personal one", () => {
    expect(pickActiveWorkspace([PERSONAL_WORKSPACE, TEAM], "w-team")?.id).toBe("w-team");
    expect(pickActiveWorkspace([TEAM, PERSONAL_WORKSPACE], "w-gone")?.id).toBe("w-personal");
    expect(pickActiveWorkspace([TEAM], null)?.id).toBe("w-team");
    expect(pickActiveWorkspace([], "w-team")).toBeUndefined();
  });
});

describe("the user menu", () => {
  test("names the user and offers the profile and sign-out; arrows move, Escape closes", async () => {
    await renderApp("/", "es");
    const button = await screen.findByRole("button", { name: "Menú de la cuenta de Ana García" });
    expect(button.getAttribute("aria-haspopup")).toBe("menu");
    act(() => {
      button.focus();
    });
    fireEvent.keyDown(button, { key: "Enter" });
    const menu = await screen.findByRole("menu", { name: "Menú de la cuenta de Ana García" });
    expect(menu.textContent).toContain("ana@example.com");
    const items = within(menu).getAllByRole("menuitem");
    expect(items.map((i) => i.textContent)).toEqual(["Perfil", "Facturación", "Cerrar sesión"]);
    expect(items[0]?.getAttribute("href")).toBe("/profile");
    expect(items[1]?.getAttribute("href")).toBe("/profile/billing?tab=billing");
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(document.activeElement ?? menu, { key: "ArrowDown" });
    await waitFor(() => expect(document.activeElement).toBe(items[1]));
    fireEvent.keyDown(document.activeElement ?? menu, { key: "ArrowUp" });
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(document.activeElement ?? menu, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
    // The menu's code loaded on demand; its trigger (the same avatar) has the focus back.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId("user-menu-button")));
  });

  test("a tap on the avatar opens the menu, whose code loads only then", async () => {
    await renderApp("/", "en");
    const button = await screen.findByRole("button", { name: "Account menu of Ana García" });
    expect(button.getAttribute("aria-expanded")).toBe("false");
    expect(screen.queryByRole("menu")).toBeNull();
    fireEvent.click(button);
    const menu = await screen.findByRole("menu");
    expect(within(menu).getAllByRole("menuitem").map((i) => i.textContent)).toEqual(["Profile", "Billing", "Log out"]);
    expect(screen.getByTestId("user-menu-button").getAttribute("aria-expanded")).toBe("true");
  });

  test("an admin also finds the administration", async () => {
    await renderApp("/", "en", createFakeServer({ me: fakeMe({ user: { isAdmin: true } }) }));
    const button = await screen.findByRole("button", { name: "Account menu of Ana García" });
    fireEvent.keyDown(button, { key: "Enter" });
    const menu = await screen.findByRole("menu");
    expect(within(menu).getAllByRole("menuitem").map((i) => i.textContent)).toEqual(["Profile", "Billing", "Administration", "Log out"]);
  });
});
