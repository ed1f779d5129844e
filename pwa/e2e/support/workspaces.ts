// Page models of the workspaces: the top bar's switcher and its actions, /workspaces (my workspaces,
// the invitations addressed to me, creating a team workspace) and /workspaces/$id (members, roles,
// invitations). Spanish texts: the tests run in es-ES.
import { expect, type Locator, type Page } from "@playwright/test";

export type Role = "owner" | "editor" | "viewer";

/** The role names as the screens show them (es). */
export const ROLE_NAMES: Record<Role, string> = { owner: "Propietario/a", editor: "Editor/a", viewer: "Lector/a" };

export class WorkspaceSwitcher {
  readonly select: Locator;
  /** My role in the active workspace (team workspaces only). */
  readonly role: Locator;
  readonly manageLink: Locator;
  readonly createLink: Locator;

  constructor(readonly page: Page) {
    this.select = page.getByRole("combobox", { name: "Espacio de trabajo" });
    this.role = page.getByTestId("workspace-role");
    this.manageLink = page.getByTestId("manage-workspaces");
    this.createLink = page.getByRole("link", { name: "Crear espacio de equipo" });
  }

  /** The names of the workspaces it lists. */
  async names(): Promise<string[]> {
    return (await this.select.locator("option").allTextContents()).map((name) => name.trim());
  }

  async choose(name: string): Promise<void> {
    await this.select.selectOption({ label: name });
  }
}

export class WorkspacesPage {
  readonly heading: Locator;
  readonly list: Locator;
  readonly inbox: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1, name: "Espacios de trabajo" });
    this.list = page.getByTestId("workspace-list");
    this.inbox = page.getByRole("region", { name: "Invitaciones para ti" });
  }

  async open(): Promise<void> {
    await this.page.goto("/workspaces");
    await expect(this.heading).toBeVisible();
  }

  /** The invitation to the named workspace, addressed to me. */
  invitationTo(workspace: string): Locator {
    return this.inbox.getByTestId("invitation-for-me").filter({ hasText: workspace });
  }

  async accept(workspace: string): Promise<void> {
    await this.inbox.getByRole("button", { name: `Aceptar la invitación a ${workspace}` }).click();
    await expect(this.page.getByText(`Te has unido a ${workspace}`)).toBeVisible();
  }

  /** The row of a workspace in my list. */
  row(name: string): Locator {
    return this.list.getByTestId("workspace-row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** Fills and sends the creation dialog (opened from the top bar or the page). */
  async create(name: string): Promise<void> {
    const dialog = this.page.getByRole("dialog", { name: "Crear un espacio de equipo" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Nombre del espacio").fill(name);
    await dialog.getByRole("button", { name: "Crear espacio" }).click();
    await expect(dialog).toBeHidden();
  }
}

export class WorkspaceDetailPage {
  readonly root: Locator;
  readonly members: Locator;
  readonly invitations: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("workspace-detail");
    this.members = page.getByTestId("members");
    this.invitations = page.getByRole("region", { name: "Invitaciones" });
  }

  heading(name: string): Locator {
    return this.page.getByRole("heading", { level: 1, name, exact: true });
  }

  /** A member's row, found by e-mail address (two test accounts may share a name). */
  member(email: string): Locator {
    return this.members.locator(`[data-testid="member-row"][data-email="${email}"]`);
  }

  /** The picker (the kit's Select) that changes a member's role (owners only); it shows the role's name. */
  roleSelect(email: string): Locator {
    return this.member(email).getByRole("combobox");
  }

  pendingInvitation(email: string): Locator {
    return this.invitations.locator(`[data-testid="pending-invitation"][data-email="${email}"]`);
  }

  async invite(email: string, role: Role): Promise<void> {
    await this.invitations.getByLabel("Correo electrónico").fill(email);
    // With the pointer: open the kit's Select and click the role.
    await this.invitations.getByRole("combobox", { name: "Rol" }).click();
    await this.page.getByRole("listbox").getByRole("option", { name: ROLE_NAMES[role], exact: true }).click();
    await expect(this.invitations.getByRole("combobox", { name: "Rol" })).toHaveText(ROLE_NAMES[role]);
    await this.invitations.getByRole("button", { name: "Enviar invitación" }).click();
    await expect(this.page.getByText(`Invitación enviada a ${email}`)).toBeVisible();
  }

  /** With the keyboard alone: Enter opens the list, typing the role's name moves to it, Enter picks it. */
  async changeRole(email: string, role: Role): Promise<void> {
    const select = this.roleSelect(email);
    await select.focus();
    await select.press("Enter");
    const listbox = this.page.getByRole("listbox");
    await expect(listbox).toBeVisible();
    await this.page.keyboard.type(ROLE_NAMES[role].slice(0, 3));
    await expect(listbox.getByRole("option", { name: ROLE_NAMES[role], exact: true })).toBeFocused();
    await this.page.keyboard.press("Enter");
    await expect(listbox).toBeHidden();
  }

  /** Removes a member, confirming in the dialog. */
  async remove(email: string): Promise<void> {
    await this.member(email).getByRole("button", { name: /^Quitar a .* del espacio$/ }).click();
    const dialog = this.page.getByRole("alertdialog", { name: /^¿Quitar a / });
    await dialog.getByRole("button", { name: "Quitar miembro" }).click();
    await expect(dialog).toBeHidden();
  }

  /** The confirmation that deletes the workspace (the kit's AlertDialog with type-to-confirm). */
  get deleteDialog(): Locator {
    return this.page.getByRole("alertdialog", { name: "Eliminar el espacio" });
  }

  /** Opens the danger zone's confirmation and types a name into it; returns its delete button. */
  async askToDelete(name: string): Promise<Locator> {
    const zone = this.page.getByRole("region", { name: "Zona peligrosa" });
    await zone.getByRole("button", { name: "Eliminar el espacio…" }).click();
    await this.deleteDialog.getByLabel("Escribe el nombre del espacio para confirmar").fill(name);
    return this.deleteDialog.getByRole("button", { name: "Eliminar definitivamente" });
  }
}

