// Account actions end to end, in Chromium against the real binary: changing the e-mail address
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
    expect((await page.request.get("/api/v1/me")).status()).toBe(401);

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
    await expect(page).toHaveURL(/\/$/);
    await expect(new AppShell(page).dashboardEmpty).toBeVisible();
  });
});
