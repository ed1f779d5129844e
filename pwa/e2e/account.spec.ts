// Account actions end to end, in Chromium against the real binary: the account security of issue 11
// (password change, reset by e-mailed code and link, the signed-in devices with "sign out other
// devices", the authenticator step reloaded after its code, the resend countdown); changing the e-mail address
// (re-verified with a code e-mailed to the old address, confirmed with the code sent to the new one,
// both read from the dev outbox), deleting the account (re-verified with the password; the device is
// wiped and the address no longer signs in), the admin user list (search and paging through the
// server's X-Total-Count and Link headers) and Access Denied for everyone else.
import type { BrowserContext, Page } from "@playwright/test";
import { AccessDeniedPage, AccountReverifyDialog, AccountSection, AdminUsersPage, DangerZone, waitForMail } from "./support/account-pages";
import { adminAccount, createOnboardedAccount, signInStatus, signUpOnly, storageStateFor, type ApiAccount } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { SignInPage, UserMenu } from "./support/auth-pages";
import { expect, test, visitorTest } from "./support/fixtures";
import { forgetProofOfIdentity } from "./support/sessions";
import { TotpSetupPage } from "./support/auth-pages";
import { timeStep, totpCode } from "./support/totp";

/** Puts the account's session cookie in the browser. */
async function signInBrowser(context: BrowserContext, baseURL: string, account: ApiAccount): Promise<void> {
  await context.addCookies(storageStateFor(baseURL, account).cookies);
}

/**
 * Like signInBrowser, for a session signed in more than ten minutes ago: its sign-in no longer counts
 * as a proof of identity, so the next sensitive action asks for one.
 */
async function signInBrowserLongAgo(context: BrowserContext, baseURL: string, account: ApiAccount): Promise<void> {
  forgetProofOfIdentity(account.email);
  await signInBrowser(context, baseURL, account);
}

async function databaseNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name ?? ""));
}

visitorTest.describe("account actions", () => {
  visitorTest("a user changes their e-mail address, re-verifying with an e-mailed code, then signs in with the new one", async ({ page, context, baseURL, request }) => {
    const stamp = Date.now();
    const account = await createOnboardedAccount(baseURL!, `cambio.${stamp}@example.com`, "frase de paso para el cambio 3318");
    const newEmail = `nuevo.${stamp}@example.com`;
    await signInBrowserLongAgo(context, baseURL!, account);
    await page.goto("/profile");
    const section = new AccountSection(page);
    await expect(section.email).toContainText(account.email);

    // The new address → the server asks for a recent proof → an e-mailed code to the current address.
    await section.askForNewAddress(newEmail);
    const dialog = new AccountReverifyDialog(page);
    await expect(dialog.dialog).toBeVisible();
    await dialog.passWithEmailedCode(async () => (await waitForMail(request, baseURL!, account.email, "reverify")).code);
    await expect(dialog.dialog).toBeHidden();

    // The code went to the new address; until it is entered nothing has changed.
    await expect(section.changeForm.getByText(`Hemos enviado un código de 6 dígitos a ${newEmail}.`, { exact: false })).toBeVisible();
    expect(await signInStatus(baseURL!, account.email, account.password)).toBe(200);
    const change = await waitForMail(request, baseURL!, newEmail, "change_email");
    await section.confirmWithCode(change.code);
    await expect(page.getByText(`Tu correo ahora es ${newEmail}`)).toBeVisible();
    await expect(section.email).toContainText(newEmail);
    await expect(section.changeForm).toBeHidden();

    // The old address is told, and no longer signs in.
    const notice = await waitForMail(request, baseURL!, account.email, "email_changed");
    expect(notice.text).toContain("n***@example.com");
    expect(await signInStatus(baseURL!, account.email, account.password)).toBe(401);

    // Sign out, and back in with the new address.
    await new UserMenu(page).choose("Cerrar sesión");
    const signIn = new SignInPage(page);
    await expect(signIn.heading).toBeVisible();
    await signIn.withPassword(newEmail, account.password);
    await expect(page).toHaveURL(/\/$/);
    await expect(new AppShell(page).dashboardEmpty).toBeVisible();
  });

  visitorTest("a user deletes their account: the device is wiped, and the address no longer signs in", async ({ page, context, baseURL }) => {
    const account = await createOnboardedAccount(baseURL!, `baja.${Date.now()}@example.com`, "frase de paso para la baja 7710");
    await signInBrowserLongAgo(context, baseURL!, account);
    await page.goto("/profile");
    const me = (await (await page.request.get("/api/v1/me")).json()) as { user: { id: string } };
    // The signed-in app keeps the user's records in a device database (opened by the sync engine).
    await expect.poll(() => databaseNames(page)).toContain(`patrimonio-${me.user.id}`);
    expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("es");

    const zone = new DangerZone(page);
    await zone.deleteAccount(account.email);
    const dialog = new AccountReverifyDialog(page);
    await expect(dialog.dialog).toBeVisible();
    await dialog.passWithPassword(account.password);

    await expect(page.getByText("Tu cuenta se ha eliminado")).toBeVisible();
    await expect(page).toHaveURL(/\/signin$/);
    const signIn = new SignInPage(page);
    await expect(signIn.heading).toBeVisible();
    // The device: no database left; the device's language kept (the server's Clear-Site-Data had
    // emptied localStorage).
    await expect.poll(() => databaseNames(page)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem("i18nextLng"))).toBe("es");
    // Nobody is signed in: /me answers 204.
    expect((await page.request.get("/api/v1/me")).status()).toBe(204);

    await signIn.withPassword(account.email, account.password);
    await expect(page.getByRole("alert")).toHaveText("El correo electrónico o la contraseña no son correctos.");
    await expect(page).toHaveURL(/\/signin$/);
  });

  visitorTest("an admin searches the users and pages through them", async ({ page, context, baseURL }) => {
    // Eleven users whose addresses share a word nobody else's has.
    const word = `lista${Date.now()}`;
    const emails = Array.from({ length: 11 }, (_, i) => `${word}.${String(i + 1).padStart(2, "0")}@example.com`);
    for (const email of emails) await signUpOnly(baseURL!, email, "frase de paso de la lista 4409");
    const newestFirst = [...emails].reverse();

    await signInBrowser(context, baseURL!, await adminAccount(baseURL!));
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/users$/);
    const admin = new AdminUsersPage(page);
    await expect(admin.heading).toBeVisible();

    await admin.search(word.toUpperCase());
    await expect(admin.range).toHaveText("1–11 de 11");
    expect(await admin.emails()).toEqual(newestFirst);
    await expect(admin.pager).toBeHidden();

    await admin.rowsPerPage(10);
    await expect(admin.range).toHaveText("1–10 de 11");
    expect(await admin.emails()).toEqual(newestFirst.slice(0, 10));
    await expect(admin.pager.getByRole("button", { name: "Anterior" })).toBeDisabled();

    await admin.next();
    await expect(admin.range).toHaveText("11–11 de 11");
    expect(await admin.emails()).toEqual(newestFirst.slice(10));
    await expect(admin.pager.getByRole("button", { name: "Siguiente" })).toBeDisabled();

    await admin.previous();
    await expect(admin.range).toHaveText("1–10 de 11");

    await admin.search(`${word}-nadie`);
    await expect(page.getByText(`Ningún usuario tiene un correo que contenga «${word}-nadie».`)).toBeVisible();
  });
});

test.describe("the admin area for everyone else", () => {
  test("a non-admin visiting /admin sees Access Denied with a way back, and the server refuses the admin API", async ({ page }) => {
    await page.goto("/admin");
    const denied = new AccessDeniedPage(page);
    await expect(denied.heading).toBeVisible();
    expect((await page.request.get("/api/v1/admin/users")).status()).toBe(403);
    await denied.back.click();
    // Back to the assets (the spec: "Access denied page with a way back to assets").
    await expect(page).toHaveURL(/\/assets\/?(\?.*)?$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
});

/** A second device of the account: a session made through the API, its token. */
async function signInElsewhere(baseURL: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/v1/auth/signin`, {
    method: "POST",
    headers: { Origin: baseURL, Accept: "application/json", "Content-Type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  expect(res.status).toBe(200);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("patrimonio_session="));
  return cookie!.split(";")[0]!.slice("patrimonio_session=".length);
}

/** Whether a session token still opens the signed-in API. */
async function sessionAlive(baseURL: string, token: string): Promise<boolean> {
  const res = await fetch(`${baseURL}/api/v1/auth/sessions`, { headers: { Cookie: `patrimonio_session=${token}`, Accept: "application/json" } });
  return res.status === 200;
}

/** Signs up through the API and verifies the address: the account waits at the authenticator step. */
async function accountAtAuthenticatorStep(baseURL: string, email: string, password: string): Promise<ApiAccount> {
  const post = (path: string, body: unknown) =>
    fetch(`${baseURL}/api/v1${path}`, {
      method: "POST",
      headers: { Origin: baseURL, Accept: "application/json", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
  expect((await post("/auth/signup", { email, password })).status).toBe(202);
  const mails = (await (await fetch(`${baseURL}/api/v1/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as { code: string }[];
  const verified = await post("/auth/signup/verify", { email, code: mails.at(-1)!.code });
  expect(verified.status).toBe(200);
  const cookie = verified.headers.getSetCookie().find((c) => c.startsWith("patrimonio_session="))!;
  return { email, password, sessionToken: cookie.split(";")[0]!.slice("patrimonio_session=".length) };
}

visitorTest.describe("account security (issue 11)", () => {
  visitorTest("a user changes the password on the profile; the other device is signed out", async ({ page, context, baseURL }) => {
    const stamp = Date.now();
    const account = await createOnboardedAccount(baseURL!, `clave.${stamp}@example.com`, "frase de paso de la clave 5521");
    const phone = await signInElsewhere(baseURL!, account.email, account.password);
    await signInBrowser(context, baseURL!, account);
    await page.goto("/profile");
    const setting = page.getByTestId("password-setting");
    await setting.getByRole("button", { name: "Cambiar la contraseña" }).click();
    await setting.getByRole("textbox", { name: "Contraseña actual", exact: true }).fill(account.password);
    await setting.getByRole("textbox", { name: "Nueva contraseña", exact: true }).fill("   ");
    await setting.getByLabel("Repite la nueva contraseña").fill("   ");
    await setting.getByRole("button", { name: "Cambiar la contraseña" }).click();
    // Refused on the device already (the shared schema's length), under the field.
    await expect(setting.locator('[data-part="error"]').first()).toContainText(/espacios|10 caracteres/);

    const next = "otra frase de paso distinta 8830";
    await setting.getByRole("textbox", { name: "Nueva contraseña", exact: true }).fill(next);
    await setting.getByLabel("Repite la nueva contraseña").fill(next);
    await setting.getByRole("button", { name: "Cambiar la contraseña" }).click();
    await expect(page.getByText("Contraseña cambiada. Se ha cerrado la sesión en tus otros dispositivos.")).toBeVisible();
    expect(await sessionAlive(baseURL!, phone)).toBe(false);
    expect(await signInStatus(baseURL!, account.email, account.password)).toBe(401);
    expect(await signInStatus(baseURL!, account.email, next)).toBe(200);
  });

  visitorTest("the profile lists the signed-in devices, signs out one, then the others; focus stays in the list", async ({ page, context, baseURL }) => {
    const account = await createOnboardedAccount(baseURL!, `equipos.${Date.now()}@example.com`, "frase de paso de los equipos 1184");
    const tablet = await signInElsewhere(baseURL!, account.email, account.password);
    const laptop = await signInElsewhere(baseURL!, account.email, account.password);
    const phone = await signInElsewhere(baseURL!, account.email, account.password);
    await signInBrowser(context, baseURL!, account);
    await page.goto("/profile");
    const devices = page.getByTestId("sessions-setting");
    await expect(devices.getByTestId("session-item")).toHaveCount(4);
    await expect(devices.getByText("Este dispositivo")).toBeVisible();

    // One device signed out by its own button. Focus went with its row: the next device's button
    // has it now, not the page (ui/focusKeeper.ts).
    const ends = devices.getByRole("button", { name: /^Cerrar la sesión de / });
    await expect(ends).toHaveCount(3);
    await ends.first().click();
    await expect(page.getByText("Sesión cerrada en ese dispositivo")).toBeVisible();
    await expect(devices.getByTestId("session-item")).toHaveCount(3);
    await expect(ends).toHaveCount(2);
    await expect(ends.first()).toBeFocused();
    expect((await Promise.all([tablet, laptop, phone].map((token) => sessionAlive(baseURL!, token)))).filter(Boolean)).toHaveLength(2);

    // The rest at once: that button goes with them, and focus to the section's title.
    await devices.getByRole("button", { name: "Cerrar sesión en los demás dispositivos" }).click();
    await expect(page.getByText("Sesión cerrada en 2 dispositivos")).toBeVisible();
    await expect(devices.getByTestId("session-item")).toHaveCount(1);
    await expect(devices.getByRole("heading", { name: "Dispositivos con la sesión iniciada" })).toBeFocused();
    for (const token of [tablet, laptop, phone]) expect(await sessionAlive(baseURL!, token)).toBe(false);
    expect(await sessionAlive(baseURL!, account.sessionToken)).toBe(true);
  });

  visitorTest("a forgotten password is reset with the e-mailed code, and again with the e-mailed link", async ({ page, baseURL, request }) => {
    const account = await createOnboardedAccount(baseURL!, `olvido.${Date.now()}@example.com`, "frase de paso olvidada 6620");
    await page.goto("/signin");
    await page.getByRole("link", { name: "¿Has olvidado la contraseña?" }).click();
    await expect(page).toHaveURL(/\/password\/forgot$/);
    // The URL changes before the screen's code has loaded, and the sign-in screen, still shown until
    // then, has a field of the same name: wait for the new screen before typing.
    await expect(page.getByRole("heading", { name: "Restablecer la contraseña" })).toBeVisible();
    await page.getByLabel("Correo electrónico").fill(account.email);
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(page.getByRole("heading", { name: "Revisa tu correo" })).toBeVisible();
    // The resend link waits out the cooldown, counting down.
    await expect(page.getByRole("button", { name: /^Reenviar en \d+ s$/ })).toBeDisabled();

    const mail = await waitForMail(request, baseURL!, account.email, "reset_password");
    const byCode = "nueva frase de paso por código 7741";
    await page.getByLabel("Código del correo").fill(mail.code);
    await page.getByRole("textbox", { name: "Nueva contraseña", exact: true }).fill(byCode);
    await page.getByLabel("Repite la nueva contraseña").fill(byCode);
    await page.getByRole("button", { name: "Guardar la nueva contraseña" }).click();
    await expect(page.getByText("Contraseña cambiada. Ya puedes iniciar sesión.")).toBeVisible();
    expect(await signInStatus(baseURL!, account.email, byCode)).toBe(200);
    expect(await sessionAlive(baseURL!, account.sessionToken)).toBe(false);

    // An unknown address gets the same answer.
    await page.goto("/password/forgot");
    await page.getByLabel("Correo electrónico").fill(`nadie.${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Enviar" }).click();
    await expect(page.getByRole("heading", { name: "Revisa tu correo" })).toBeVisible();

    // By the link (a new request, after the one-minute interval is not needed: the first was used).
    const again = await fetch(`${baseURL}/api/v1/auth/password/forgot`, {
      method: "POST",
      headers: { Origin: baseURL!, "Content-Type": "application/json" },
      body: JSON.stringify({ email: account.email }),
    });
    expect(again.status).toBe(202);
    const linkMail = await waitForMail(request, baseURL!, account.email, "reset_password", 2);
    const link = new URL(linkMail.link!);
    await page.goto(link.pathname + link.search);
    const byLink = "nueva frase de paso por enlace 3305";
    await page.getByRole("textbox", { name: "Nueva contraseña", exact: true }).fill(byLink);
    await page.getByLabel("Repite la nueva contraseña").fill(byLink);
    await page.getByRole("button", { name: "Guardar la nueva contraseña" }).click();
    await expect(page.getByText("Contraseña cambiada. Ya puedes iniciar sesión.")).toBeVisible();
    await page.getByRole("link", { name: "Volver a iniciar sesión" }).click();
    const signIn = new SignInPage(page);
    await signIn.withPassword(account.email, byLink);
    await expect(page).toHaveURL(/\/$/);
  });

  visitorTest("reloading the authenticator step after its code keeps the first authenticator", async ({ page, context, baseURL }) => {
    const account = await accountAtAuthenticatorStep(baseURL!, `recarga.${Date.now()}@example.com`, "frase de paso de la recarga 9912");
    await signInBrowser(context, baseURL!, account);
    await page.goto("/onboarding/2fa");
    const setup = new TotpSetupPage(page);
    const secret = await setup.readSecret();
    await setup.verify(totpCode(secret, timeStep()));
    await expect(setup.recoveryCodes).toHaveCount(10);

    await page.reload();
    await expect(page.getByText("Tu aplicación de autenticación ya está activada.")).toBeVisible();
    await expect(setup.qr).toHaveCount(0);
    // The first authenticator still signs in (the server replaced nothing).
    const res = await fetch(`${baseURL}/api/v1/auth/signin`, {
      method: "POST",
      headers: { Origin: baseURL!, "Content-Type": "application/json" },
      body: JSON.stringify({ email: account.email, password: account.password }),
    });
    const pending = res.headers.getSetCookie().find((c) => c.startsWith("patrimonio_session="))!.split(";")[0]!;
    const second = await fetch(`${baseURL}/api/v1/auth/signin/totp`, {
      method: "POST",
      headers: { Origin: baseURL!, "Content-Type": "application/json", Cookie: pending },
      body: JSON.stringify({ code: totpCode(secret, timeStep() + 1) }),
    });
    expect(second.status).toBe(200);
  });

  visitorTest("the re-verification dialog's resend counts down and keeps the code field and Confirm", async ({ page, context, baseURL, request }) => {
    const account = await createOnboardedAccount(baseURL!, `cuenta.atras.${Date.now()}@example.com`, "frase de paso de la cuenta atrás 4471");
    await signInBrowser(context, baseURL!, account);
    await page.goto("/profile");
    await page.getByTestId("identity-confirmation").getByRole("button", { name: "Confirmar que soy yo" }).click();
    const dialog = new AccountReverifyDialog(page);
    await dialog.dialog.getByRole("button", { name: "Usar otro método" }).click();
    await dialog.dialog.getByRole("button", { name: "Enviarme un código por correo" }).click();
    await expect(dialog.dialog.getByRole("button", { name: /^Reenviar en \d+ s$/ })).toBeDisabled();
    const code = dialog.dialog.getByLabel("Código del correo");
    await expect(code).toBeVisible();
    await code.fill((await waitForMail(request, baseURL!, account.email, "reverify")).code);
    await dialog.dialog.getByRole("button", { name: "Confirmar" }).click();
    await expect(dialog.dialog).toBeHidden();
  });
});
