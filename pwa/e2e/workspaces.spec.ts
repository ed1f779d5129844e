import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext } from "@playwright/test";
import { createOnboardedAccount, storageStateFor, type ApiAccount } from "./support/accounts";
import { expect, test } from "./support/fixtures";
import { ROLE_NAMES, WorkspaceDetailPage, WorkspaceSwitcher, WorkspacesPage } from "./support/workspaces";

const PASSWORD = "lengthy e2e passphrase 4821";

/** A browser of its own, signed in as the account (cookies and storage apart from every other). */
async function signedIn(browser: Browser, baseURL: string, account: ApiAccount): Promise<BrowserContext> {
  return browser.newContext({ baseURL, storageState: storageStateFor(baseURL, account) });
}

test.describe("team workspaces", () => {
  test("an owner shares a workspace with a viewer, makes them editor, then removes them", async ({ browser, baseURL }) => {
    if (!baseURL) throw new Error("no base URL");
    // Two fresh people, made through the API (unique per run: the server's data outlives a test).
    const run = randomBytes(4).toString("hex");
    const owner = await createOnboardedAccount(baseURL, `ws-owner-${run}@example.com`, PASSWORD);
    const member = await createOnboardedAccount(baseURL, `ws-member-${run}@example.com`, PASSWORD);
    const teamName = `Familia ${run}`;

    const ownerContext = await signedIn(browser, baseURL, owner);
    const memberContext = await signedIn(browser, baseURL, member);
    try {
      // The owner creates the team workspace from the top bar and lands on it.
      const ownerPage = await ownerContext.newPage();
      await ownerPage.goto("/");
      const ownerSwitcher = new WorkspaceSwitcher(ownerPage);
      await ownerSwitcher.createLink.click();
      await new WorkspacesPage(ownerPage).create(teamName);
      const detail = new WorkspaceDetailPage(ownerPage);
      await expect(detail.heading(teamName)).toBeVisible();
      await expect(ownerPage).toHaveURL(/\/workspaces\/[0-9a-f-]{36}$/);
      await expect(detail.member(owner.email)).toContainText(ROLE_NAMES.owner);
      await expect.poll(() => ownerSwitcher.names()).toContain(teamName);

      // … and invites the second person as a viewer.
      await detail.invite(member.email, "viewer");
      await expect(detail.pendingInvitation(member.email)).toContainText(ROLE_NAMES.viewer);

      // The second person sees the invitation (counted in the top bar), accepts it, and finds the
      // workspace in the switcher with the role viewer.
      const memberPage = await memberContext.newPage();
      await memberPage.goto("/");
      const memberSwitcher = new WorkspaceSwitcher(memberPage);
      await expect(memberSwitcher.manageLink).toHaveAccessibleName("Gestionar espacios de trabajo (1 invitación pendiente)");
      expect(await memberSwitcher.names()).not.toContain(teamName);
      await memberSwitcher.manageLink.click();
      const memberWorkspaces = new WorkspacesPage(memberPage);
      await expect(memberWorkspaces.invitationTo(teamName)).toContainText(`${owner.email} te ha invitado a unirte como lector/a.`);
      await memberWorkspaces.accept(teamName);
      await expect(memberWorkspaces.inbox).toBeHidden();
      await expect(memberWorkspaces.row(teamName)).toContainText(ROLE_NAMES.viewer);
      await expect.poll(() => memberSwitcher.names()).toContain(teamName);
      await memberSwitcher.choose(teamName);
      await expect(memberSwitcher.role).toHaveAttribute("data-role", "viewer");
      await expect(memberSwitcher.role).toContainText(ROLE_NAMES.viewer);

      // The owner sees the new member (the invitation is spent) and makes them editor.
      await ownerPage.reload();
      await expect(detail.member(member.email)).toBeVisible();
      await expect(detail.pendingInvitation(member.email)).toHaveCount(0);
      await expect(detail.roleSelect(member.email)).toHaveText(ROLE_NAMES.viewer);
      await detail.changeRole(member.email, "editor");
      await expect(ownerPage.getByText("Lucía Fernández ahora es editor/a")).toBeVisible();
      await expect(detail.roleSelect(member.email)).toHaveText(ROLE_NAMES.editor);

      // The member's top bar says so after a reload (the chosen workspace is remembered).
      await memberPage.reload();
      await expect(memberSwitcher.select.locator("option:checked")).toHaveText(teamName);
      await expect(memberSwitcher.role).toHaveAttribute("data-role", "editor");

      // The owner removes the member.
      await detail.remove(member.email);
      await expect(ownerPage.getByText(`Lucía Fernández ya no tiene acceso a ${teamName}`)).toBeVisible();
      await expect(detail.member(member.email)).toHaveCount(0);
      // Focus went with the removed row; the owner's own row offers no control, so the members
      // section has it, not the page (ui/focusKeeper.ts).
      await expect(ownerPage.getByTestId("members")).toBeFocused();

      // After a reload, the member's switcher no longer lists it, and the app works in their
      // personal workspace again.
      await memberPage.reload();
      await expect(memberSwitcher.select).toBeVisible();
      await expect.poll(() => memberSwitcher.names()).not.toContain(teamName);
      expect(await memberSwitcher.names()).toHaveLength(1);
      await expect(memberSwitcher.role).toHaveCount(0);
      // Opening it directly tells them it is not available to them.
      await memberPage.goto(ownerPage.url().replace(/^https?:\/\/[^/]+/, ""));
      await expect(memberPage.getByTestId("workspace-unavailable")).toContainText("No se ha encontrado el espacio de trabajo.");
    } finally {
      await ownerContext.close();
      await memberContext.close();
    }
  });

  test("an owner deletes a team workspace after typing its name", async ({ browser, baseURL }) => {
    if (!baseURL) throw new Error("no base URL");
    const run = randomBytes(4).toString("hex");
    const owner = await createOnboardedAccount(baseURL, `ws-delete-${run}@example.com`, PASSWORD);
    const teamName = `Viajes ${run}`;
    const context = await signedIn(browser, baseURL, owner);
    try {
      const page = await context.newPage();
      await page.goto("/workspaces");
      await page.getByRole("button", { name: "Crear espacio de equipo" }).click();
      const workspaces = new WorkspacesPage(page);
      await workspaces.create(teamName);
      const detail = new WorkspaceDetailPage(page);
      await expect(detail.heading(teamName)).toBeVisible();
      const switcher = new WorkspaceSwitcher(page);
      await expect.poll(() => switcher.names()).toContain(teamName);

      // A wrong name cannot delete: the button stays disabled.
      const confirm = await detail.askToDelete(teamName.toUpperCase());
      await expect(confirm).toBeDisabled();

      // The right name deletes it. The server wants a proof of identity from the last 10 minutes;
      // signing in is one, so this fresh session passes without the re-verification dialog (the
      // dialog's path, a proof asked for and then given, is in WorkspaceDetailScreen.test.tsx).
      await detail.deleteDialog.getByLabel("Escribe el nombre del espacio para confirmar").fill(teamName);
      await confirm.click();
      await expect(page.getByText(`Espacio ${teamName} eliminado`)).toBeVisible();
      await expect(page).toHaveURL(/\/workspaces$/);
      await expect(workspaces.list).toBeVisible();
      await expect(workspaces.row(teamName)).toHaveCount(0);
      await expect.poll(() => switcher.names()).not.toContain(teamName);
      const left = (await (await page.request.get("/api/v1/workspaces")).json()) as { name: string }[];
      expect(left.map((w) => w.name)).not.toContain(teamName);
    } finally {
      await context.close();
    }
  });
});
