// Accounts end to end, in Chromium against the real binary: sign-up, e-mail code from the dev
// outbox, TOTP from the manual code, a passkey on Chromium's virtual authenticator, the personal
// identity form, sign-out wiping the device, passkey sign-in, the re-verification dialog, and a
// password sign-in with its second factor.
import {
  PersonalInfoPage,
  ProfilePage,
  ReverifyDialog,
  SignInPage,
  SignUpPage,
  TotpSetupPage,
  UserMenu,
  VerifyEmailPage,
} from "./support/auth-pages";
import { createOnboardedAccount } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { expect, visitorTest as test } from "./support/fixtures";
import { waitForCode } from "./support/outbox";
import { freshCode, timeStep, totpCode } from "./support/totp";
import { addVirtualAuthenticator } from "./support/webauthn";

const SPANISH_REQUIRED = {
  Nombre: "El primer nombre es requerido",
  Apellidos: "El apellido es requerido",
  "Fecha de nacimiento": "La fecha de nacimiento es requerida",
  Sexo: "El sexo es requerido",
  "País de residencia": "El país es requerido",
  "Provincia o estado": "La provincia es requerida",
};

test.describe("accounts", () => {
  test("sign up, secure the account, onboard, sign out, sign in with the passkey, re-verify, sign in with password and code", async ({ page, context, baseURL, request }) => {
    // Many screens and a few network round trips: give it three times the usual time.
    test.slow();
    const authenticator = await addVirtualAuthenticator(context, page);
    const email = `ana.${Date.now()}@example.com`;
    const password = "una frase de paso bastante larga 7391";

    // Sign-up → the e-mailed code (read from the dev outbox) → /onboarding#/security (spec).
    const signUp = new SignUpPage(page);
    await signUp.open();
    await signUp.signUp(email, password);
    const verify = new VerifyEmailPage(page);
    await expect(verify.heading).toBeVisible();
    // No session yet: the address that signed up travels in the URL; the code signs in.
    await expect(page).toHaveURL(/\/signup\/verify\?email=/);
    await verify.enterCode(await waitForCode(request, baseURL!, email));
    await expect(page).toHaveURL(/\/onboarding#\/security$/);
    await expect(page.getByText("Se tarda unos 3 minutos.")).toBeVisible();
    await expect(page.locator("#onboarding-security")).toHaveAttribute("aria-current", "step");

    // The authenticator app: QR code, manual code → a code computed here (RFC 6238) → recovery codes.
    await page.getByTestId("onboarding-start").click();
    await expect(page).toHaveURL(/\/onboarding\/2fa$/);
    const totp = new TotpSetupPage(page);
    await expect(totp.qr).toBeVisible();
    expect(await totp.qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    const secret = await totp.readSecret();
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const setupStep = timeStep();
    await totp.verify(totpCode(secret, setupStep));
    await expect(totp.recoveryCodes).toHaveCount(10);
    await totp.confirmCodesSaved();

    // The passkey, made by Chromium's virtual authenticator. Once the account has an authenticator
    // app, adding a passkey needs a recent proof that includes a second factor (issue 11): the
    // re-verification dialog asks for a new code.
    await expect(page).toHaveURL(/\/onboarding\/passkey$/);
    await page.getByRole("button", { name: "Crear llave de acceso" }).click();
    const passkeyProof = await freshCode(secret, setupStep);
    await new ReverifyDialog(page).passWithAuthenticatorCode(passkeyProof.code);
    await expect(page).toHaveURL(/\/onboarding\/personal-info$/);
    const stored = await authenticator.credentials();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.isResidentCredential).toBe(true);

    // The personal identity: an empty submit shows the spec's Spanish messages, then it is filled.
    const identity = new PersonalInfoPage(page);
    await identity.submit();
    for (const [label, message] of Object.entries(SPANISH_REQUIRED)) {
      expect(await identity.errorOf(label), label).toBe(message);
    }
    await expect(page).toHaveURL(/\/onboarding\/personal-info$/);
    await identity.fill({
      firstName: "Ana",
      lastName: "García López",
      birthday: "1980-05-17",
      gender: "female",
      country: "ES",
      state: "Madrid",
    });
    await identity.submit();

    // The dashboard, with the user menu and the workspace switcher in the top bar.
    const shell = new AppShell(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(shell.dashboardEmpty).toBeVisible();
    await expect(page.getByTestId("workspace-switcher")).toBeVisible();
    const menu = new UserMenu(page);
    await expect(menu.button).toBeVisible();

    // Sign-out wipes the device: a database made before it is gone after it.
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open("e2e-wealth-records", 1);
          open.onupgradeneeded = () => open.result.createObjectStore("assets");
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            open.result.close();
            resolve();
          };
        }),
    );
    const namesBefore = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
    expect(namesBefore).toContain("e2e-wealth-records");
    await menu.choose("Cerrar sesión");
    const signIn = new SignInPage(page);
    await expect(signIn.heading).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/);
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name))).toEqual([]);
    expect((await page.request.get("/api/v1/me")).status()).toBe(204); // nobody is signed in

    // Sign in with the passkey (a discoverable credential: no e-mail typed).
    await signIn.withPasskey();
    await expect(page).toHaveURL(/\/$/);
    await expect(shell.dashboardEmpty).toBeVisible();
    expect((await authenticator.credentials())[0]?.signCount).toBeGreaterThan(0);

    // The re-verification dialog, from the profile's security section, passed with a TOTP code
    // the server has not seen yet (each code works once).
    await menu.choose("Perfil");
    await expect(page).toHaveURL(/\/profile$/);
    const profile = new ProfilePage(page);
    await profile.confirmIdentity();
    const dialog = new ReverifyDialog(page);
    await expect(dialog.dialog).toBeVisible();
    const reverifyCode = await freshCode(secret, passkeyProof.step);
    await dialog.passWithAuthenticatorCode(reverifyCode.code);
    await expect(dialog.dialog).toBeHidden();
    await expect(profile.identityConfirmation).toContainText("Confirmada hasta las");

    // With the proof fresh, the passkey is removed from the profile. Focus went with its row; with
    // no passkey left it goes to "add a passkey", not to the page (ui/focusKeeper.ts).
    const passkeys = page.getByTestId("passkeys-setting");
    await passkeys.getByRole("button", { name: /^Eliminar la llave de acceso / }).click();
    await expect(page.getByText("Llave de acceso eliminada")).toBeVisible();
    await expect(passkeys.getByText("Aún no tienes llaves de acceso.")).toBeVisible();
    await expect(passkeys.getByRole("button", { name: "Añadir llave de acceso" })).toBeFocused();

    // A password sign-in on this account asks for the authenticator code as a second step.
    await menu.choose("Cerrar sesión");
    await expect(signIn.heading).toBeVisible();
    await signIn.withPassword(email, password);
    await signIn.secondFactor((await freshCode(secret, reverifyCode.step)).code);
    await expect(page).toHaveURL(/\/$/);
    await expect(shell.dashboardEmpty).toBeVisible();
  });

  test("a signed-out visitor is sent to /signin, and back after signing in", async ({ page, baseURL }) => {
    const account = await createOnboardedAccount(baseURL!, `luis.${Date.now()}@example.com`, "otra frase de paso muy larga 5512");
    await page.goto("/profile");
    await expect(page).toHaveURL(/\/signin\?redirect=%2Fprofile$/);
    const signIn = new SignInPage(page);
    await expect(signIn.heading).toBeVisible();
    await signIn.withPassword(account.email, account.password);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole("heading", { name: "Perfil", level: 1 })).toBeVisible();
  });

  test("a wrong password is refused with the server's message, in the page's language", async ({ page }) => {
    await page.goto("/signin");
    await new SignInPage(page).withPassword("nadie@example.com", "no es la contraseña");
    await expect(page.getByRole("alert")).toHaveText("El correo electrónico o la contraseña no son correctos.");
    await expect(page).toHaveURL(/\/signin$/);

    await new AppShell(page).chooseLanguage("en");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByRole("alert")).toHaveText("The e-mail address or the password is wrong.");
  });
});
