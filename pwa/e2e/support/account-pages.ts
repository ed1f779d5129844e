// Page models of the account actions: the profile's e-mail change and danger zone, the
// re-verification dialog's other methods, the admin user list and the Access Denied screen; and the
// dev outbox read by purpose (which mail of an address holds which code).
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { ReverifyDialog } from "./auth-pages";
import { readOutbox, type OutboxMail } from "./outbox";

/** The server's mail purposes (server/account/emailcode.go). */
export type MailPurpose =
  | "verify_email"
  | "reverify"
  | "change_email"
  | "email_changed"
  | "reset_password"
  | "password_changed"
  | "signup_exists";

/**
 * Waits for the `count`-th mail of this purpose to `to` and returns it (its code, for the ones that
 * carry one). Other mails to the same address are not counted.
 */
export async function waitForMail(request: APIRequestContext, baseURL: string, to: string, purpose: MailPurpose, count = 1): Promise<OutboxMail> {
  let found: OutboxMail[] = [];
  await expect
    .poll(async () => {
      found = (await readOutbox(request, baseURL, to)).filter((mail) => mail.purpose === purpose);
      return found.length;
    }, { message: `mail number ${count} for ${purpose} to ${to}` })
    .toBeGreaterThanOrEqual(count);
  return found[count - 1]!;
}

/** The profile's account card: the address and its change. */
export class AccountSection {
  readonly email: Locator;
  readonly changeForm: Locator;
  constructor(readonly page: Page) {
    this.email = page.getByTestId("account-email");
    this.changeForm = page.getByRole("form", { name: "Cambia tu dirección de correo" });
  }

  async askForNewAddress(address: string): Promise<void> {
    await this.page.getByRole("button", { name: "Cambiar correo" }).click();
    await this.changeForm.getByLabel("Nueva dirección de correo").fill(address);
    await this.changeForm.getByRole("button", { name: "Enviar código" }).click();
  }

  async confirmWithCode(code: string): Promise<void> {
    await this.changeForm.getByLabel("Código enviado a la nueva dirección").fill(code);
    await this.changeForm.getByRole("button", { name: "Confirmar el cambio" }).click();
  }
}

/** The re-verification dialog passed with the password or with a code e-mailed to the account. */
export class AccountReverifyDialog extends ReverifyDialog {
  async passWithPassword(password: string): Promise<void> {
    await this.dialog.getByLabel("Contraseña").fill(password);
    await this.dialog.getByRole("button", { name: "Confirmar" }).click();
  }

  /** Asks for an e-mailed code; `readCode` fetches it once it is sent. */
  async passWithEmailedCode(readCode: () => Promise<string>): Promise<void> {
    await this.dialog.getByRole("button", { name: "Usar otro método" }).click();
    await this.dialog.getByRole("button", { name: "Enviarme un código por correo" }).click();
    await expect(this.dialog.getByText(/^Hemos enviado un código de 6 dígitos a /)).toBeVisible();
    await this.dialog.getByLabel("Código del correo").fill(await readCode());
    await this.dialog.getByRole("button", { name: "Confirmar" }).click();
  }
}

/** The profile's danger zone: deleting the account. */
export class DangerZone {
  readonly zone: Locator;
  constructor(readonly page: Page) {
    this.zone = page.getByTestId("danger-zone");
  }

  async deleteAccount(typedEmail: string): Promise<void> {
    await this.zone.getByRole("button", { name: "Eliminar la cuenta…" }).click();
    // The confirmation is the kit's AlertDialog (type-to-confirm).
    const dialog = this.page.getByRole("alertdialog", { name: "No se puede deshacer" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Escribe tu dirección de correo para confirmar").fill(typedEmail);
    await dialog.getByRole("button", { name: "Eliminar mi cuenta para siempre" }).click();
  }
}

/** /admin/users. */
export class AdminUsersPage {
  readonly heading: Locator;
  readonly range: Locator;
  readonly table: Locator;
  readonly pager: Locator;
  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Usuarios", level: 1 });
    this.range = page.getByTestId("admin-users-range");
    this.table = page.getByTestId("admin-users");
    this.pager = page.getByRole("navigation", { name: "Páginas de usuarios" });
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole("searchbox", { name: "Buscar por correo" }).fill(text);
    await this.page.getByRole("button", { name: "Buscar", exact: true }).click();
  }

  async rowsPerPage(size: number): Promise<void> {
    await this.page.getByLabel("Filas por página").selectOption(String(size));
  }

  async next(): Promise<void> {
    await this.pager.getByRole("button", { name: "Siguiente" }).click();
  }

  async previous(): Promise<void> {
    await this.pager.getByRole("button", { name: "Anterior" }).click();
  }

  /** The e-mail column of the shown rows, top to bottom. */
  async emails(): Promise<string[]> {
    return this.table.locator("tbody tr td:nth-child(2)").allTextContents();
  }
}

/** The Access Denied screen. */
export class AccessDeniedPage {
  readonly heading: Locator;
  readonly back: Locator;
  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Acceso denegado" });
    this.back = page.getByRole("link", { name: "Volver a tus activos" });
  }
}
