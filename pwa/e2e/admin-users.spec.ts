// The admin user list end to end (real server binary, Chromium): an admin disables a user from
// /admin/users (menu, confirmation; the change shows in the audit list); the user's open app loses
// its session at once (the server closes its sync socket, no reload needed) and the right password
// is refused with the reason; enabling lets them back. Granting admin asks the acting admin to
// confirm their identity first; the new admin reaches the admin area until the role is revoked.
import type { Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { adminAccount, createOnboardedAccount, signInStatus, storageStateFor } from "./support/accounts";
import { SignInPage } from "./support/auth-pages";
import { expect, test } from "./support/fixtures";
import { forgetProofOfIdentity } from "./support/sessions";

const PASSWORD = "lengthy e2e passphrase 7310";

/** Finds the user's row on /admin/users (searched by e-mail) and runs an action of its menu,
 * confirming it in the dialog. */
async function act(page: Page, email: string, item: string, dialogTitle: string): Promise<void> {
  await page.getByRole("searchbox", { name: "Buscar por correo" }).fill(email);
  const row = page.getByTestId(`admin-user-${email}`);
  await row.getByRole("button", { name: `Acciones de ${email}` }).click();
  await page.getByRole("menuitem", { name: item }).click();
  await page.getByRole("alertdialog", { name: dialogTitle }).getByRole("button", { name: item }).click();
}

test.describe("admin users", () => {
  test("a disabled user is signed out at once and cannot sign in; enabled, they can again", async ({ browser, baseURL }) => {
    if (!baseURL) throw new Error("no base URL");
    const run = randomBytes(4).toString("hex");
    const admin = await adminAccount(baseURL);
    const user = await createOnboardedAccount(baseURL, `disabled-${run}@example.com`, PASSWORD);
    const adminContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, admin), locale: "es-ES" });
    const userContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, user), locale: "es-ES" });
    try {
      // The user works in the app, syncing.
      const userPage = await userContext.newPage();
      await userPage.goto("/");
      await expect(userPage.getByTestId("sync-status")).toHaveAttribute("data-state", "synced");
      await expect(userPage.getByTestId("user-menu-button")).toBeVisible();

      const page = await adminContext.newPage();
      await page.goto("/admin/users");
      await expect(page.getByRole("heading", { level: 1, name: "Usuarios" })).toBeVisible();
      await page.getByRole("searchbox", { name: "Buscar por correo" }).fill(user.email);
      const row = page.getByTestId(`admin-user-${user.email}`);
      await expect(row.getByTestId("admin-user-status")).toHaveText("Activa");
      await expect(row).toContainText("Ninguna"); // no subscription stored
      await expect(row).not.toContainText("Nunca"); // signing up signed them in

      await act(page, user.email, "Desactivar cuenta", `¿Desactivar ${user.email}?`);
      await expect(page.getByText(`La cuenta de ${user.email} está desactivada; sus sesiones han terminado.`)).toBeVisible();
      await expect(row.getByTestId("admin-user-status")).toHaveText("Desactivada");
      await expect(page.getByTestId("admin-users-audit")).toContainText(`${admin.email} desactivó a ${user.email}`);

      // The server closed the user's sync socket (4401): their open app learns at once that nobody is
      // signed in (no reload, no click): the account menu is gone. A reload lands on sign-in.
      await expect(userPage.getByTestId("user-menu-button")).toHaveCount(0);
      await userPage.reload();
      const signIn = new SignInPage(userPage);
      await expect(signIn.heading).toBeVisible();
      await signIn.withPassword(user.email, PASSWORD);
      await expect(userPage.getByText("Esta cuenta está desactivada. Ponte en contacto con el administrador.")).toBeVisible();
      expect(await signInStatus(baseURL, user.email, PASSWORD)).toBe(403);

      // An admin cannot disable themself: their own row's actions are off.
      await page.getByRole("searchbox", { name: "Buscar por correo" }).fill(admin.email);
      await page.getByTestId(`admin-user-${admin.email}`).getByRole("button", { name: `Acciones de ${admin.email}` }).click();
      await expect(page.getByRole("menuitem", { name: "Desactivar cuenta" })).toBeDisabled();
      await page.keyboard.press("Escape");

      await act(page, user.email, "Activar cuenta", `¿Activar ${user.email}?`);
      await expect(row.getByTestId("admin-user-status")).toHaveText("Activa");
      await signIn.withPassword(user.email, PASSWORD);
      await expect(userPage).not.toHaveURL(/\/signin/);
      expect(await signInStatus(baseURL, user.email, PASSWORD)).toBe(200);
    } finally {
      await adminContext.close();
      await userContext.close();
    }
  });

  test("granting admin asks for the admin's identity; the new admin reaches the admin area until revoked", async ({ browser, baseURL }) => {
    if (!baseURL) throw new Error("no base URL");
    const run = randomBytes(4).toString("hex");
    const admin = await adminAccount(baseURL);
    const user = await createOnboardedAccount(baseURL, `promoted-${run}@example.com`, PASSWORD);
    const adminContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, admin), locale: "es-ES" });
    const userContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, user), locale: "es-ES" });
    try {
      const userPage = await userContext.newPage();
      await userPage.goto("/admin/users");
      await expect(userPage.getByRole("heading", { level: 1, name: "Usuarios" })).toHaveCount(0);

      const page = await adminContext.newPage();
      await page.goto("/admin/users");
      forgetProofOfIdentity(admin.email); // as if the admin signed in more than ten minutes ago
      await act(page, user.email, "Hacer administrador", `¿Hacer administrador a ${user.email}?`);
      const proof = page.getByRole("dialog", { name: "Confirma que eres tú" });
      await proof.getByLabel("Contraseña").fill(admin.password);
      await proof.getByRole("button", { name: "Confirmar" }).click();
      await expect(page.getByText(`${user.email} ya es administrador.`)).toBeVisible();
      await expect(page.getByTestId(`admin-user-${user.email}`)).toContainText("Administrador");

      await userPage.goto("/admin/users");
      await expect(userPage.getByRole("heading", { level: 1, name: "Usuarios" })).toBeVisible();

      await act(page, user.email, "Quitar rol de administrador", `¿Quitar el rol de administrador a ${user.email}?`);
      await expect(page.getByText(`${user.email} ya no es administrador.`)).toBeVisible();
      await userPage.goto("/admin/users");
      await expect(userPage.getByRole("heading", { level: 1, name: "Usuarios" })).toHaveCount(0);
    } finally {
      await adminContext.close();
      await userContext.close();
    }
  });
});
