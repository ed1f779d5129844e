// /workspaces/$workspaceId through the real app against the fake server's workspaces: what each role
// is offered, and each change (rename, roles, removal, leaving, invitations, deletion with the
// re-verification dialog), with the server's refusals shown as it words them.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, test } from "vitest";
import { FAKE_PROOF } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";
import { serverFor, teamWorld } from "./testWorld";

// The re-verification dialog and the toasts load on demand (not with the first page); their modules are
// loaded once here so that a test waits for the app, not for the test runner compiling them.
beforeAll(() => Promise.all([import("../../auth/reverify/ReverifyDialog"), import("../../toast/sonnerToaster")]));

async function openTeam(role: "owner" | "editor" | "viewer", language: "es" | "en" = "es") {
  const world = teamWorld(role);
  const app = await renderApp("/workspaces/w-team", language, serverFor(world));
  await screen.findByTestId("workspace-detail");
  return { ...app, world, team: () => world.workspaces.find((w) => w.id === "w-team") };
}

function memberRow(email: string): HTMLElement {
  const row = within(screen.getByTestId("members"))
    .getAllByTestId("member-row")
    .find((r) => r.dataset.email === email);
  if (!row) throw new Error(`no member row for ${email}`);
  return row;
}

// jsdom lays nothing out: Radix's Select scrolls its list to the chosen option when it opens.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

/** Opens a kit Select (Radix) with the keyboard, as a keyboard user would, and returns its list. */
async function openSelect(trigger: HTMLElement): Promise<HTMLElement> {
  trigger.focus();
  fireEvent.keyDown(trigger, { key: "Enter" });
  return screen.findByRole("listbox");
}

/** The options a kit Select offers, in order; the list is closed again (Escape) afterwards. */
async function selectOptions(trigger: HTMLElement): Promise<string[]> {
  const listbox = await openSelect(trigger);
  const texts = within(listbox).getAllByRole("option").map((o) => o.textContent ?? "");
  fireEvent.keyDown(listbox, { key: "Escape" });
  await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
  return texts;
}

/** Picks an option of a kit Select by its text. */
async function choose(trigger: HTMLElement, label: string): Promise<void> {
  const listbox = await openSelect(trigger);
  fireEvent.click(within(listbox).getByRole("option", { name: label }));
  await waitFor(() => expect(screen.queryByRole("listbox")).toBeNull());
}

function switcherOptions(): string[] {
  const select = screen.getByRole("combobox", { name: "Espacio de trabajo" });
  return [...select.querySelectorAll("option")].map((o) => o.textContent ?? "");
}

describe("what each role is offered", () => {
  test("the only owner renames, changes others' roles, removes them, invites as any role, withdraws any invitation and deletes; they cannot leave", async () => {
    await openTeam("owner");
    expect(screen.getByRole("heading", { level: 1, name: "Familia García" })).toBeTruthy();
    expect(screen.getByLabelText(/^Nombre del espacio/)).toBeTruthy();

    const luis = memberRow("luis@example.com");
    const luisRole = within(luis).getByRole("combobox", { name: "Rol de Luis Pérez" });
    expect(luisRole.textContent).toBe("Editor/a");
    expect(await selectOptions(luisRole)).toEqual(["Editor/a", "Propietario/a", "Lector/a"]);
    expect(within(luis).getByRole("button", { name: "Quitar a Luis Pérez del espacio" })).toBeTruthy();
    // Marta has no last name: her name is her first name, her address below.
    expect(within(memberRow("marta@example.com")).getByRole("combobox", { name: "Rol de Marta" })).toBeTruthy();

    // Ana is the last owner: her role stays, she cannot be removed nor leave, and is told why.
    const ana = memberRow("ana@example.com");
    expect(ana.textContent).toContain("(tú)");
    expect(within(ana).queryByRole("combobox")).toBeNull();
    expect(within(ana).getByTestId("member-role").textContent).toBe("Propietario/a");
    expect(within(ana).queryByRole("button")).toBeNull();
    expect(screen.getByText(/Eres su único propietario\/a/)).toBeTruthy();

    const invitations = screen.getByRole("region", { name: "Invitaciones" });
    const role = within(invitations).getByRole("combobox", { name: "Rol" });
    expect(role.textContent).toBe("Lector/a");
    expect(await selectOptions(role)).toEqual(["Lector/a", "Editor/a", "Propietario/a"]);
    expect(within(invitations).getByRole("button", { name: "Retirar la invitación a pedro@example.com" })).toBeTruthy();
    expect(within(invitations).getByRole("button", { name: "Retirar la invitación a sofia@example.com" })).toBeTruthy();

    expect(screen.getByRole("region", { name: "Zona peligrosa" })).toBeTruthy();
  });

  test("an editor invites editors and viewers, withdraws only what they could have sent, and may leave; nothing else", async () => {
    await openTeam("editor");
    expect(screen.queryByLabelText("Nombre del espacio")).toBeNull();
    expect(within(screen.getByTestId("members")).queryAllByRole("combobox")).toEqual([]);
    expect(within(screen.getByTestId("members")).queryByRole("button", { name: /^Quitar a/ })).toBeNull();
    expect(within(memberRow("ana@example.com")).getByRole("button", { name: "Abandonar el espacio" })).toBeTruthy();
    expect(within(memberRow("luis@example.com")).queryByRole("button")).toBeNull();

    const invitations = screen.getByRole("region", { name: "Invitaciones" });
    expect(await selectOptions(within(invitations).getByRole("combobox", { name: "Rol" }))).toEqual(["Lector/a", "Editor/a"]);
    expect(within(invitations).getByRole("button", { name: "Retirar la invitación a pedro@example.com" })).toBeTruthy();
    expect(within(invitations).queryByRole("button", { name: "Retirar la invitación a sofia@example.com" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Zona peligrosa" })).toBeNull();
  });

  test("a viewer sees the members and may leave; no invitations, no changes", async () => {
    await openTeam("viewer");
    expect(screen.getByTestId("detail-role").textContent).toContain("Lector/a");
    expect(screen.queryByRole("region", { name: "Invitaciones" })).toBeNull();
    expect(screen.queryByLabelText("Nombre del espacio")).toBeNull();
    expect(within(screen.getByTestId("members")).queryAllByRole("combobox")).toEqual([]);
    const buttons = within(screen.getByTestId("members")).getAllByRole("button");
    expect(buttons.map((b) => b.textContent)).toEqual(["Abandonar el espacio"]);
    expect(screen.queryByRole("region", { name: "Zona peligrosa" })).toBeNull();
  });

  test("the personal workspace can be renamed, never shared, left or deleted", async () => {
    await renderApp("/workspaces/w-personal", "en", serverFor(teamWorld()));
    expect(await screen.findByRole("heading", { level: 1, name: "Ana (main)" })).toBeTruthy();
    expect(screen.getByText("Your personal workspace is yours alone: it cannot be shared, left or deleted.")).toBeTruthy();
    expect(screen.getByLabelText(/^Name of the workspace/)).toBeTruthy();
    expect(within(screen.getByTestId("members")).queryAllByRole("button")).toEqual([]);
    expect(screen.queryByRole("region", { name: "Invitations" })).toBeNull();
    expect(screen.queryByRole("region", { name: "Danger zone" })).toBeNull();
  });

  test("a workspace I am not a member of is not available, with the server's message", async () => {
    await renderApp("/workspaces/w-advisers", "es", serverFor(teamWorld()));
    const unavailable = await screen.findByTestId("workspace-unavailable");
    expect(within(unavailable).getByRole("heading", { name: "Este espacio de trabajo no está disponible" })).toBeTruthy();
    expect(unavailable.textContent).toContain("No se ha encontrado el espacio de trabajo.");
    expect(screen.getByRole("link", { name: "Todos los espacios" }).getAttribute("href")).toBe("/workspaces");
  });
});

describe("changes", () => {
  test("an owner renames the workspace; the switcher follows", async () => {
    const { server } = await openTeam("owner");
    const name = screen.getByLabelText(/^Nombre del espacio/);
    fireEvent.change(name, { target: { value: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Cambiar el nombre" }));
    expect(await screen.findByText("Escribe un nombre para el espacio de trabajo")).toBeTruthy();
    expect(server.state.calls).not.toContain("PATCH /workspaces/w-team");

    fireEvent.change(name, { target: { value: "Familia García-Ruiz" } });
    fireEvent.click(screen.getByRole("button", { name: "Cambiar el nombre" }));
    expect(await screen.findByRole("heading", { level: 1, name: "Familia García-Ruiz" })).toBeTruthy();
    expect(server.state.bodies[server.state.calls.indexOf("PATCH /workspaces/w-team")]).toEqual({ name: "Familia García-Ruiz" });
    await waitFor(() => expect(switcherOptions()).toContain("Familia García-Ruiz"));
  });

  test("an owner changes a member's role", async () => {
    const { server, team } = await openTeam("owner");
    await choose(within(memberRow("marta@example.com")).getByRole("combobox", { name: "Rol de Marta" }), "Editor/a");
    expect(await screen.findByText("Marta ahora es editor/a")).toBeTruthy();
    expect(server.state.calls).toContain("PATCH /workspaces/w-team/members/u-marta");
    expect(server.state.bodies[server.state.calls.indexOf("PATCH /workspaces/w-team/members/u-marta")]).toEqual({ role: "editor" });
    expect(team()?.members.find((m) => m.userId === "u-marta")?.role).toBe("editor");
    await waitFor(() => expect(within(memberRow("marta@example.com")).getByRole("combobox").textContent).toBe("Editor/a"));
  });

  test("making a member a viewer is asked first (their connections end): cancelling sends nothing, confirming changes it", async () => {
    const world = teamWorld("owner");
    const team = world.workspaces.find((w) => w.id === "w-team")!;
    team.members.find((m) => m.userId === "u-marta")!.role = "editor";
    const app = await renderApp("/workspaces/w-team", "es", serverFor(world));
    await screen.findByTestId("workspace-detail");
    const path = "PATCH /workspaces/w-team/members/u-marta";
    await choose(within(memberRow("marta@example.com")).getByRole("combobox", { name: "Rol de Marta" }), "Lector/a");
    let dialog = await screen.findByRole("alertdialog", { name: "¿Hacer lector/a a Marta?" });
    expect(dialog.textContent).toContain("Sus conexiones con bancos y brókeres en este espacio terminan");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(app.server.state.calls).not.toContain(path);
    expect(within(memberRow("marta@example.com")).getByRole("combobox").textContent).toBe("Editor/a");

    await choose(within(memberRow("marta@example.com")).getByRole("combobox", { name: "Rol de Marta" }), "Lector/a");
    dialog = await screen.findByRole("alertdialog", { name: "¿Hacer lector/a a Marta?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Hacer lector/a" }));
    expect(await screen.findByText("Marta ahora es lector/a")).toBeTruthy();
    expect(app.server.state.bodies[app.server.state.calls.indexOf(path)]).toEqual({ role: "viewer" });
    expect(team.members.find((m) => m.userId === "u-marta")?.role).toBe("viewer");
  });

  test("an owner lowering their own role is asked first: cancelling sends nothing, confirming changes it", async () => {
    const world = teamWorld("owner");
    const team = world.workspaces.find((w) => w.id === "w-team")!;
    team.members.find((m) => m.userId === "u-luis")!.role = "owner";
    const app = await renderApp("/workspaces/w-team", "es", serverFor(world));
    await screen.findByTestId("workspace-detail");
    const path = "PATCH /workspaces/w-team/members/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";

    await choose(within(memberRow("ana@example.com")).getByRole("combobox", { name: "Rol de Ana García" }), "Lector/a");
    let dialog = await screen.findByRole("alertdialog", { name: "¿Dejar de ser propietario/a de Familia García?" });
    expect(dialog.textContent).toContain("Pasarás a ser lector/a");
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Cancelar" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(app.server.state.calls).not.toContain(path);
    expect(within(memberRow("ana@example.com")).getByRole("combobox").textContent).toBe("Propietario/a");

    await choose(within(memberRow("ana@example.com")).getByRole("combobox", { name: "Rol de Ana García" }), "Editor/a");
    dialog = await screen.findByRole("alertdialog", { name: "¿Dejar de ser propietario/a de Familia García?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cambiar mi rol" }));
    expect(await screen.findByText("Ana García ahora es editor/a")).toBeTruthy();
    expect(app.server.state.bodies[app.server.state.calls.indexOf(path)]).toEqual({ role: "editor" });
  });

  test("a refused role change shows the server's message and the role the server keeps", async () => {
    // Two owners on screen, but the other one left meanwhile: Ana is the last owner on the server.
    const world = teamWorld("owner");
    const team = world.workspaces.find((w) => w.id === "w-team")!;
    team.members.find((m) => m.userId === "u-luis")!.role = "owner";
    const app = await renderApp("/workspaces/w-team", "en", serverFor(world));
    await screen.findByTestId("workspace-detail");
    team.members = team.members.filter((m) => m.userId !== "u-luis");

    await choose(within(memberRow("ana@example.com")).getByRole("combobox", { name: "Role of Ana García" }), "Viewer");
    fireEvent.click(within(await screen.findByRole("alertdialog")).getByRole("button", { name: "Change my role" }));
    expect(await screen.findByText("A workspace must keep at least one owner.")).toBeTruthy();
    expect(app.server.state.calls).toContain("PATCH /workspaces/w-team/members/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    // Asked again: Luis is gone and Ana, the last owner, keeps her role with no change offered.
    await waitFor(() => expect(within(screen.getByTestId("members")).queryByText("Luis Pérez")).toBeNull());
    expect(within(memberRow("ana@example.com")).getByTestId("member-role").textContent).toBe("Owner");
  });

  test("an owner removes a member after confirming", async () => {
    const { server, team } = await openTeam("owner");
    fireEvent.click(within(memberRow("luis@example.com")).getByRole("button", { name: "Quitar a Luis Pérez del espacio" }));
    const dialog = await screen.findByRole("alertdialog", { name: "¿Quitar a Luis Pérez?" });
    expect(dialog.textContent).toContain("Luis Pérez pierde el acceso a Familia García");
    // The safe choice has the focus.
    expect(document.activeElement).toBe(within(dialog).getByRole("button", { name: "Cancelar" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Quitar miembro" }));
    expect(await screen.findByText("Luis Pérez ya no tiene acceso a Familia García")).toBeTruthy();
    expect(server.state.calls).toContain("DELETE /workspaces/w-team/members/u-luis");
    expect(team()?.members.map((m) => m.userId)).not.toContain("u-luis");
    await waitFor(() => expect(within(screen.getByTestId("members")).queryByText("Luis Pérez")).toBeNull());
    expect(screen.queryByRole("dialog")).toBeNull();
  });

  test("cancelling the removal changes nothing", async () => {
    const { server } = await openTeam("owner");
    fireEvent.click(within(memberRow("luis@example.com")).getByRole("button", { name: "Quitar a Luis Pérez del espacio" }));
    const dialog = await screen.findByRole("alertdialog", { name: "¿Quitar a Luis Pérez?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(server.state.calls.filter((c) => c.startsWith("DELETE"))).toEqual([]);
  });

  test("a member leaves: back to the list, and the switcher no longer lists the workspace", async () => {
    const { server, router } = await openTeam("editor");
    expect(switcherOptions()).toContain("Familia García");
    fireEvent.click(within(memberRow("ana@example.com")).getByRole("button", { name: "Abandonar el espacio" }));
    const dialog = await screen.findByRole("alertdialog", { name: "¿Abandonar Familia García?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Abandonar" }));
    expect(await screen.findByText("Has abandonado Familia García")).toBeTruthy();
    expect(server.state.calls).toContain("DELETE /workspaces/w-team/members/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    await waitFor(() => expect(router.state.location.pathname).toBe("/workspaces"));
    await waitFor(() => expect(switcherOptions()).not.toContain("Familia García"));
    expect(within(await screen.findByTestId("workspace-list")).queryByText("Familia García")).toBeNull();
  });

  test("inviting checks the address, sends it with the chosen role, and lists the invitation", async () => {
    const { server, team } = await openTeam("owner");
    const invitations = screen.getByRole("region", { name: "Invitaciones" });
    const email = within(invitations).getByLabelText(/^Correo electrónico/);
    const send = within(invitations).getByRole("button", { name: "Enviar invitación" });

    fireEvent.click(send);
    expect(await within(invitations).findByText("Escribe el correo electrónico de la persona a la que invitas")).toBeTruthy();
    fireEvent.change(email, { target: { value: "nuria@" } });
    fireEvent.click(send);
    expect(await within(invitations).findByText("Correo electrónico no válido")).toBeTruthy();
    expect(server.state.calls.filter((c) => c === "POST /workspaces/w-team/invitations")).toEqual([]);

    fireEvent.change(email, { target: { value: " Nuria@Example.com " } });
    await choose(within(invitations).getByRole("combobox", { name: "Rol" }), "Editor/a");
    expect(within(invitations).getByText("Añade y cambia registros, e invita a editores y lectores")).toBeTruthy();
    fireEvent.click(send);
    expect(await screen.findByText("Invitación enviada a nuria@example.com")).toBeTruthy();
    expect(server.state.bodies[server.state.calls.indexOf("POST /workspaces/w-team/invitations")]).toEqual({ email: "nuria@example.com", role: "editor" });
    expect(team()?.invitations.map((i) => i.email)).toContain("nuria@example.com");
    const pending = await within(invitations).findAllByTestId("pending-invitation");
    await waitFor(() => expect(within(invitations).getAllByTestId("pending-invitation").map((row) => row.dataset.email)).toContain("nuria@example.com"));
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect((email as HTMLInputElement).value).toBe("");
  });

  test("inviting a member shows the server's refusal", async () => {
    await openTeam("owner");
    const invitations = screen.getByRole("region", { name: "Invitaciones" });
    fireEvent.change(within(invitations).getByLabelText(/^Correo electrónico/), { target: { value: "luis@example.com" } });
    fireEvent.click(within(invitations).getByRole("button", { name: "Enviar invitación" }));
    expect((await within(invitations).findByRole("alert")).textContent).toBe("luis@example.com ya es miembro de este espacio de trabajo.");
  });

  test("withdrawing an invitation", async () => {
    const { server, team } = await openTeam("owner");
    const invitations = screen.getByRole("region", { name: "Invitaciones" });
    fireEvent.click(within(invitations).getByRole("button", { name: "Retirar la invitación a pedro@example.com" }));
    expect(await screen.findByText("Invitación a pedro@example.com retirada")).toBeTruthy();
    expect(server.state.calls).toContain("DELETE /workspaces/w-team/invitations/inv-pedro");
    expect(team()?.invitations.map((i) => i.id)).toEqual(["inv-sofia"]);
    await waitFor(() => expect(within(invitations).queryByText("pedro@example.com")).toBeNull());
  });

  test("deleting asks for the name, then for a proof of identity, and goes back to the list", async () => {
    const { server, router, world } = await openTeam("owner");
    const zone = screen.getByRole("region", { name: "Zona peligrosa" });
    fireEvent.click(within(zone).getByRole("button", { name: "Eliminar el espacio…" }));
    const ask = await screen.findByRole("alertdialog", { name: "Eliminar el espacio" });
    const confirm = within(ask).getByLabelText(/^Escribe el nombre del espacio para confirmar/);
    expect(document.activeElement).toBe(confirm);
    const submit = within(ask).getByRole("button", { name: "Eliminar definitivamente" });

    // Another capitalisation does not confirm: the button stays disabled and nothing is sent.
    fireEvent.change(confirm, { target: { value: "familia garcía" } });
    expect(submit.hasAttribute("disabled")).toBe(true);
    fireEvent.click(submit);
    expect(server.state.calls).not.toContain("DELETE /workspaces/w-team");

    fireEvent.change(confirm, { target: { value: "Familia García" } });
    expect(submit.hasAttribute("disabled")).toBe(false);
    fireEvent.click(submit);
    // The server wants a recent proof: the dialog opens by itself, and the call is sent again after it.
    const dialog = await screen.findByRole("dialog", { name: "Confirma que eres tú" });
    fireEvent.change(within(dialog).getByLabelText(/^Contraseña/), { target: { value: FAKE_PROOF.password } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));

    expect(await screen.findByText("Espacio Familia García eliminado")).toBeTruthy();
    expect(server.state.calls.filter((c) => c === "DELETE /workspaces/w-team")).toHaveLength(2);
    expect(world.workspaces.map((w) => w.id)).not.toContain("w-team");
    await waitFor(() => expect(router.state.location.pathname).toBe("/workspaces"));
    await waitFor(() => expect(switcherOptions()).not.toContain("Familia García"));
  });

  test("cancelling the proof of identity deletes nothing and shows no error", async () => {
    const { world } = await openTeam("owner", "en");
    const zone = screen.getByRole("region", { name: "Danger zone" });
    fireEvent.click(within(zone).getByRole("button", { name: "Delete workspace…" }));
    const ask = await screen.findByRole("alertdialog", { name: "Delete workspace" });
    fireEvent.change(within(ask).getByLabelText(/^Type the name of the workspace to confirm/), { target: { value: "Familia García" } });
    fireEvent.click(within(ask).getByRole("button", { name: "Delete for good" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancel" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(within(ask).getByRole("button", { name: "Delete for good" }).getAttribute("aria-busy")).toBeNull());
    expect(within(ask).queryByRole("alert")).toBeNull();
    expect(world.workspaces.map((w) => w.id)).toContain("w-team");
  });
});
