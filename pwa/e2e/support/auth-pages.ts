// Page models of the account screens: sign-up, e-mail code, onboarding steps, sign-in, the user
// menu, the profile's security section and the re-verification dialog.
import { expect, type Locator, type Page } from "@playwright/test";

export class SignUpPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/signup");
    await expect(this.page.getByRole("heading", { name: "Crea tu cuenta" })).toBeVisible();
  }

  async signUp(email: string, password: string): Promise<void> {
    await this.page.getByLabel("Correo electrónico").fill(email);
    await this.page.getByLabel("Contraseña").fill(password);
    await this.page.getByRole("button", { name: "Crear cuenta" }).click();
  }
}

export class VerifyEmailPage {
  readonly heading: Locator;
  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Revisa tu correo" });
  }

  async enterCode(code: string): Promise<void> {
    await this.page.getByLabel("Código de verificación").fill(code);
    await this.page.getByRole("button", { name: "Verificar correo" }).click();
  }
}

export class TotpSetupPage {
  readonly secret: Locator;
  readonly qr: Locator;
  readonly recoveryCodes: Locator;
  constructor(readonly page: Page) {
    this.secret = page.getByTestId("totp-secret");
    this.qr = page.getByTestId("totp-qr");
    this.recoveryCodes = page.getByTestId("recovery-codes").locator("code");
  }

  /** The manual setup code, without the grouping spaces. */
  async readSecret(): Promise<string> {
    return ((await this.secret.textContent()) ?? "").replace(/\s+/g, "");
  }

  async verify(code: string): Promise<void> {
    await this.page.getByLabel("Código de 6 dígitos de la aplicación").fill(code);
    await this.page.getByRole("button", { name: "Verificar y activar" }).click();
  }

  async confirmCodesSaved(): Promise<void> {
    await this.page.getByRole("button", { name: "Ya los he guardado, continuar" }).click();
  }
}

/** The shared schema's Spanish labels of the gender codes (shared-schema/messages/es.json). */
const GENDER_LABELS: Record<string, string> = { female: "Mujer", male: "Hombre", other: "Otro" };

export class PersonalInfoPage {
  readonly form: Locator;
  constructor(readonly page: Page) {
    this.form = page.getByTestId("personal-info-form");
  }

  async submit(): Promise<void> {
    await this.form.getByRole("button", { name: "Continuar" }).click();
  }

  /** The control a label names (the kit's Field marks required fields with an aria-hidden "*"). */
  control(label: string): Locator {
    // A combobox's open list is labelled by the same label: the control is the input (or group).
    return this.form.getByLabel(new RegExp(`^${label}\\*?$`)).and(this.page.locator("input, textarea, select, [role='radiogroup']"));
  }

  /** The error text linked (aria-describedby) to the control with this label. */
  async errorOf(label: string): Promise<string | null> {
    const control = this.control(label);
    await expect(control).toHaveAttribute("aria-invalid", "true");
    const ids = ((await control.getAttribute("aria-describedby")) ?? "").split(" ").filter(Boolean);
    for (const id of ids) {
      const el = this.page.locator(`[id="${id}"][data-part="error"]`);
      if ((await el.count()) > 0) return el.textContent();
    }
    return null;
  }

  /** Fills the form; gender is a code (female, male, other) and country an ISO 3166-1 code. */
  async fill(values: { firstName: string; lastName: string; birthday: string; gender: string; country: string; state: string }) {
    await this.control("Nombre").fill(values.firstName);
    await this.control("Apellidos").fill(values.lastName);
    // The date field reads a pasted ISO date as well as 17/05/1980.
    await this.control("Fecha de nacimiento").fill(values.birthday);
    await this.form.getByRole("radio", { name: GENDER_LABELS[values.gender] ?? values.gender, exact: true }).click();
    const country = new Intl.DisplayNames(["es"], { type: "region" }).of(values.country) ?? values.country;
    await this.pick(this.control("País de residencia"), country);
    // Provinces are a picker once the device has the country's list (enumerations), else typed. The
    // list may arrive (or be refreshed) while the field is being filled: check the field holds the
    // province, and fill it again if the list replaced it meanwhile. The check comes after the field
    // loses focus: a combobox shows typed text until then even when the click on the option landed
    // on a list being replaced (the value then stays empty and blur clears the text, as in one CI run).
    const state = this.control("Provincia o estado");
    await expect(async () => {
      if ((await state.getAttribute("role")) === "combobox") await this.pick(state, values.state);
      else await state.fill(values.state);
      await state.blur();
      await expect(state).toHaveValue(new RegExp(`^${values.state}`), { timeout: 1000 });
    }).toPass({ timeout: 30_000 });
  }

  /** Types into a combobox and picks the option whose name starts with the text. */
  private async pick(combobox: Locator, text: string): Promise<void> {
    await combobox.fill(text);
    const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await this.page.getByRole("option", { name: new RegExp(`^${escaped}`) }).first().click();
  }
}

export class SignInPage {
  readonly heading: Locator;
  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { name: "Iniciar sesión" });
  }

  async withPassword(email: string, password: string): Promise<void> {
    await this.page.getByLabel("Correo electrónico").fill(email);
    await this.page.getByLabel("Contraseña").fill(password);
    await this.page.getByRole("button", { name: "Entrar", exact: true }).click();
  }

  /** The second step of a password sign-in on an account with an authenticator app. */
  async secondFactor(code: string): Promise<void> {
    await expect(this.page.getByRole("heading", { name: "Verificación en dos pasos" })).toBeVisible();
    await this.page.getByLabel("Código de autenticación").fill(code);
    await this.page.getByRole("button", { name: "Verificar" }).click();
  }

  async withPasskey(): Promise<void> {
    await this.page.getByRole("button", { name: "Entrar con una llave de acceso" }).click();
  }
}

export class UserMenu {
  readonly button: Locator;
  constructor(readonly page: Page) {
    this.button = page.getByTestId("user-menu-button");
  }

  async choose(item: "Perfil" | "Cerrar sesión" | "Administración"): Promise<void> {
    await this.button.click();
    await this.page.getByRole("menuitem", { name: item }).click();
  }
}

export class ReverifyDialog {
  readonly dialog: Locator;
  constructor(readonly page: Page) {
    this.dialog = page.getByRole("dialog", { name: "Confirma que eres tú" });
  }

  async passWithAuthenticatorCode(code: string): Promise<void> {
    await this.dialog.getByLabel("Código de tu aplicación de autenticación").fill(code);
    await this.dialog.getByRole("button", { name: "Confirmar" }).click();
  }
}

export class ProfilePage {
  readonly identityConfirmation: Locator;
  constructor(readonly page: Page) {
    this.identityConfirmation = page.getByTestId("identity-confirmation");
  }

  async confirmIdentity(): Promise<void> {
    await this.identityConfirmation.getByRole("button", { name: "Confirmar que soy yo" }).click();
  }
}
