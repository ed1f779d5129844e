// /workspaces through the real app against the fake server's workspaces: the list with my roles, the
// invitations addressed to me (in the top bar and on the page), and creating a team workspace.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, test } from "vitest";
import { error } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";
import { serverFor, teamWorld } from "./testWorld";

// The re-verification dialog and the toasts load on demand (not with the first page); their modules are
// loaded once here so that a test waits for the app, not for the test runner compiling them.
beforeAll(() => Promise.all([import("../../auth/reverify/ReverifyDialog"), import("../../toast/sonnerToaster")]));

function switcherOptions(): string[] {
  const select = screen.getByRole("combobox", { name: "Espacio de trabajo" });
  return [...select.querySelectorAll("option")].map((o) => o.textContent ?? "");
}

describe("the list of workspaces", () => {
  test("shows each workspace with my role in it, the personal one first", async () => {
    await renderApp("/workspaces", "es", serverFor(teamWorld("editor")));
    const list = await screen.findByTestId("workspace-list");
    const rows = within(list).getAllByRole("listitem");
    expect(rows.map((row) => [within(row).getByRole("link").textContent, within(row).getByTestId("workspace-row-role").textContent])).toEqual([
      ["Ana (principal)", "Propietario/aTu rol: Propietario/a"],
      ["Familia García", "Editor/aTu rol: Editor/a"],
    ]);
    expect(within(rows[0]!).getByText("Espacio personal")).toBeTruthy();
    expect(within(rows[1]!).getByText("Espacio de equipo")).toBeTruthy();
    // The workspace the app works in is marked.
    expect(within(rows[0]!).getByText("Actual")).toBeTruthy();
    expect(within(rows[0]!).getByRole("link").getAttribute("href")).toBe("/workspaces/w-personal");
  });

  test("in English too", async () => {
    await renderApp("/workspaces", "en", serverFor(teamWorld("viewer")));
    const rows = within(await screen.findByTestId("workspace-list")).getAllByTestId("workspace-row-role");
    expect(rows.map((row) => row.textContent)).toEqual(["OwnerYour role: Owner", "ViewerYour role: Viewer"]);
  });
});

describe("invitations addressed to me", () => {
  test("are counted in the top bar, listed on the page, and accepting one adds the workspace to the switcher", async () => {
    const world = teamWorld();
    const { server } = await renderApp("/", "es", serverFor(world));
    const manage = await screen.findByRole("link", { name: "Gestionar espacios de trabajo (1 invitación pendiente)" });
    expect(switcherOptions()).not.toContain("Asesores");

    fireEvent.click(manage);
    const inbox = await screen.findByRole("region", { name: "Invitaciones para ti" });
    const row = within(inbox).getByTestId("invitation-for-me");
    expect(row.textContent).toContain("Asesores");
    expect(row.textContent).toContain("carlos@example.com te ha invitado a unirte como lector/a.");

    fireEvent.click(within(inbox).getByRole("button", { name: "Aceptar la invitación a Asesores" }));
    expect(await screen.findByText("Te has unido a Asesores")).toBeTruthy();
    expect(server.state.calls).toContain("POST /invitations/inv-ana/accept");
    await waitFor(() => expect(switcherOptions()).toContain("Asesores"));
    // Answered: gone from the page and from the top bar's count.
    await waitFor(() => expect(screen.queryByRole("region", { name: "Invitaciones para ti" })).toBeNull());
    expect(screen.getByRole("link", { name: "Gestionar espacios de trabajo" })).toBeTruthy();
    // /me follows too: the device syncs the new workspace.
    expect(server.state.me?.workspaces.map((w) => w.name)).toContain("Asesores");
  });

  test("declining one removes it without joining", async () => {
    const world = teamWorld();
    const { server } = await renderApp("/workspaces", "es", serverFor(world));
    const inbox = await screen.findByRole("region", { name: "Invitaciones para ti" });
    fireEvent.click(within(inbox).getByRole("button", { name: "Rechazar la invitación a Asesores" }));
    expect(await screen.findByText("Invitación a Asesores rechazada")).toBeTruthy();
    expect(server.state.calls).toContain("POST /invitations/inv-ana/decline");
    await waitFor(() => expect(screen.queryByRole("region", { name: "Invitaciones para ti" })).toBeNull());
    expect(switcherOptions()).not.toContain("Asesores");
  });

  test("one that can no longer be accepted says why, in the app's language, and leaves the list", async () => {
    const world = teamWorld();
    await renderApp(
      "/workspaces",
      "en",
      serverFor(world, {
        "POST /invitations/inv-ana/accept": (_body, _state, request) => {
          // Withdrawn meanwhile.
          world.workspaces.find((w) => w.id === "w-advisers")!.invitations = [];
          return request.headers.get("Accept-Language") === "en"
            ? error(404, "not_found", "Invitation not found.")
            : error(404, "not_found", "No se ha encontrado la invitación.");
        },
      }),
    );
    const inbox = await screen.findByRole("region", { name: "Invitations for you" });
    fireEvent.click(within(inbox).getByRole("button", { name: "Accept the invitation to Asesores" }));
    expect(await screen.findByText("Invitation not found.")).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole("region", { name: "Invitations for you" })).toBeNull());
  });
});

describe("creating a team workspace", () => {
  test("opens from the top bar, refuses an empty name before sending, then opens the new workspace", async () => {
    const world = teamWorld();
    const { server, router } = await renderApp("/", "es", serverFor(world));
    fireEvent.click(await screen.findByRole("link", { name: "Crear espacio de equipo" }));
    const dialog = await screen.findByRole("dialog", { name: "Crear un espacio de equipo" });
    const name = within(dialog).getByLabelText(/^Nombre del espacio/);
    expect(document.activeElement).toBe(name);

    fireEvent.click(within(dialog).getByRole("button", { name: "Crear espacio" }));
    expect(await within(dialog).findByText("Escribe un nombre para el espacio de trabajo")).toBeTruthy();
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(server.state.calls).not.toContain("POST /workspaces");

    fireEvent.change(name, { target: { value: "  Viajes  " } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Crear espacio" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Viajes" })).toBeTruthy();
    expect(server.state.bodies[server.state.calls.indexOf("POST /workspaces")]).toEqual({ name: "Viajes" });
    expect(router.state.location.pathname).toMatch(/^\/workspaces\/w-new-/);
    expect(screen.queryByRole("dialog")).toBeNull();
    await waitFor(() => expect(switcherOptions()).toContain("Viajes"));
    expect(within(screen.getByTestId("members")).getByTestId("member-role").textContent).toBe("Propietario/a");
  });

  test("Cancel closes the dialog and sends nothing", async () => {
    const { server, router } = await renderApp("/workspaces?create=true", "en", serverFor(teamWorld()));
    const dialog = await screen.findByRole("dialog", { name: "Create a team workspace" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(router.state.location.search).toEqual({});
    expect(server.state.calls).not.toContain("POST /workspaces");
  });

  test("a refusal of the server is shown as the server words it, in the app's language", async () => {
    await renderApp(
      "/workspaces?create=true",
      "en",
      serverFor(teamWorld(), {
        "POST /workspaces": (_body, _state, request) =>
          request.headers.get("Accept-Language") === "en"
            ? error(400, "invalid", "The workspace name contains characters that are not allowed.")
            : error(400, "invalid", "El nombre del espacio de trabajo contiene caracteres no permitidos."),
      }),
    );
    const dialog = await screen.findByRole("dialog", { name: "Create a team workspace" });
    fireEvent.change(within(dialog).getByLabelText(/^Name of the workspace/), { target: { value: "Viajes" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Create workspace" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("The workspace name contains characters that are not allowed.");
  });
});
