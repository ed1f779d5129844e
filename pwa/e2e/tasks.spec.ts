// Tasks end to end (real server binary, Chromium): created, edited, given a quick status change and
// deleted through the screen, online and offline (also across an offline reload); a second device
// that syncs has it all; the done task is kept but folded under "Hechas (n)"; an overdue task is
// marked by the device's date; the shared schema's message in Spanish and in English; the filters
// from a deep link; a viewer reads but cannot write; an editor's offline delete that the server
// refuses (their role lowered meanwhile) is listed with its reason and brought back by "Descartar";
// axe in light and dark on a desktop and a phone.
import type { Locator, Page } from "@playwright/test";
import { createOnboardedAccount, storageStateFor } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, syncTest as test } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage } from "./support/sync-page";
import { chooseOption, pickFirstMatch } from "./support/pickers";
import { neighbourOf } from "./support/lists";

/** Yesterday on the browsers' calendar (Europe/Madrid), typed day first. */
function madridYesterday(): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  const day = new Date(Date.UTC(y, m - 1, d - 1));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(day.getUTCDate())}/${pad(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`;
}

/** Reloads the page in a language (the choice the language switch stores). */
async function useLanguage(page: Page, language: "es" | "en"): Promise<void> {
  await page.evaluate((lng) => window.localStorage.setItem("i18nextLng", lng), language);
  await page.reload();
}

/** Page model of /tasks. */
class TasksPage {
  readonly heading: Locator;
  readonly form: Locator;
  readonly open: Locator;
  readonly done: Locator;
  readonly doneToggle: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole("heading", { level: 1 });
    this.form = page.getByTestId("task-form");
    this.open = page.getByTestId("tasks-open");
    this.done = page.getByTestId("tasks-done");
    this.doneToggle = page.getByTestId("tasks-done-toggle");
  }

  async goto(search = ""): Promise<void> {
    await this.page.goto(`/tasks${search}`);
    await expect(this.page.getByTestId("task-filters")).toBeVisible();
    await expect(this.page.getByTestId("route-pending")).toHaveCount(0);
  }

  task(title: string): Locator {
    return this.page.getByTestId("task").filter({ has: this.page.getByTestId("task-title-text").getByText(title, { exact: true }) });
  }

  async fill(values: { title?: string; priority?: string; due?: string; asset?: string; notes?: string }): Promise<void> {
    if (values.title !== undefined) await this.form.getByTestId("task-title").fill(values.title);
    if (values.priority !== undefined) {
      await chooseOption(this.form.getByTestId("task-form-priority"), values.priority);
    }
    if (values.due !== undefined) await this.form.getByTestId("task-due").fill(values.due);
    if (values.asset !== undefined) {
      await pickFirstMatch(this.form.getByRole("combobox", { name: "Activo relacionado" }), values.asset);
    }
    if (values.notes !== undefined) await this.form.getByTestId("task-notes").fill(values.notes);
  }

  async create(values: Parameters<TasksPage["fill"]>[0]): Promise<void> {
    await this.page.getByTestId("task-new").click();
    await this.fill(values);
    await this.form.getByTestId("task-submit").click();
    await expect(this.form).toBeHidden();
    await expect(this.task(values.title!)).toBeVisible();
  }

  async edit(title: string, values: Parameters<TasksPage["fill"]>[0]): Promise<void> {
    await this.task(title).getByTestId("task-edit").click();
    await this.fill(values);
    await this.form.getByTestId("task-submit").click();
    await expect(this.form).toBeHidden();
  }

  async setStatus(title: string, status: string): Promise<void> {
    // Not chooseOption: a task marked done moves under "Hechas", so its Select is gone.
    await this.task(title).getByRole("combobox", { name: `Estado de «${title}»` }).click();
    await this.page.getByRole("option", { name: status, exact: true }).click();
  }

  /** The open task shown after this one (or, for the last, before it). */
  neighbourOf(title: string): Promise<string> {
    return neighbourOf(this.open.getByTestId("task-title-text"), title);
  }

  async remove(title: string): Promise<void> {
    await this.task(title).getByTestId("task-delete").click();
    const dialog = this.page.getByTestId("task-delete-dialog");
    await dialog.getByRole("button", { name: "Eliminar tarea" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.task(title)).toHaveCount(0);
  }
}

test.describe("tasks", () => {
  test.describe.configure({ timeout: 120_000 });

  test("created, edited, done and deleted online and offline; a second device has it all; filters deep-link; messages in both languages; accessible", async ({ devices }) => {
    const a = await devices.open();
    const tasks = new TasksPage(a.page);
    const indicator = new SyncIndicator(a.page);
    await tasks.goto();
    await new AppShell(a.page).serviceWorkerReady();
    await indicator.toHaveState("synced");
    await expect(a.page.getByTestId("tasks-empty")).toBeVisible();

    // An asset to tie tasks to, written by the device's commands in another tab.
    const commands = await SyncTestPage.beside(a.page);
    const flatId = await commands.create("assets", {
      name: "Piso en Cádiz",
      assetClass: "real_estate",
      category: "residential",
      currency: "EUR",
      participation: "100",
      currentValue: "250000",
    });

    // The shared schema's message, in Spanish, then in English after switching the language.
    await a.page.getByTestId("task-new").click();
    await tasks.form.getByTestId("task-submit").click();
    await expect(tasks.form.getByText("Este campo es obligatorio")).toBeVisible();
    await tasks.form.getByRole("button", { name: "Cancelar" }).click();
    await useLanguage(a.page, "en");
    await expect(tasks.heading).toHaveText("Tasks");
    await a.page.getByTestId("task-new").click();
    await tasks.form.getByTestId("task-title").fill("x".repeat(141));
    await tasks.form.getByTestId("task-submit").click();
    await expect(tasks.form.getByText("Must have at most 140 characters")).toBeVisible();
    await tasks.form.getByTestId("task-title").fill("");
    await tasks.form.getByTestId("task-submit").click();
    await expect(tasks.form.getByText("This field is required")).toBeVisible();
    await tasks.form.getByRole("button", { name: "Cancel" }).click();
    await useLanguage(a.page, "es");
    await expect(tasks.heading).toHaveText("Tareas");

    // Online: create (one overdue, tied to the flat found without its accent), edit, quick status.
    await tasks.create({ title: "Renovar el seguro del hogar", priority: "Alta", due: madridYesterday(), asset: "cadiz", notes: "Llamar a la aseguradora" });
    const insurance = tasks.task("Renovar el seguro del hogar");
    await expect(insurance.getByTestId("task-overdue")).toHaveText("Vencida");
    await expect(insurance.getByTestId("task-asset-link")).toHaveText("Piso en Cádiz");
    await expect(insurance.getByTestId("task-priority")).toHaveText("Prioridad Alta");
    await expect(a.page.getByTestId("tasks-overdue-count")).toHaveText("1 vencida");
    await tasks.create({ title: "Revisar la hipoteca" });
    await tasks.create({ title: "Pedir el certificado" });
    await tasks.edit("Revisar la hipoteca", { title: "Revisar la hipoteca del piso", priority: "Baja" });
    await expect(tasks.task("Revisar la hipoteca del piso").getByTestId("task-priority")).toHaveText("Prioridad Baja");
    // Marked done, the task leaves the open list: focus goes on to the task after it there (or the
    // one before), and a status message says where it went.
    const following = await tasks.neighbourOf("Revisar la hipoteca del piso");
    await tasks.setStatus("Revisar la hipoteca del piso", "Hecha");
    await expect(tasks.task(following).getByRole("combobox", { name: `Estado de «${following}»` })).toBeFocused();
    await expect(a.page.getByTestId("tasks-announcement")).toHaveText("«Revisar la hipoteca del piso» está ahora en Hechas.");
    // Done: kept, folded under "Hechas (1)".
    await expect(tasks.doneToggle).toHaveText("Hechas (1)");
    await expect(tasks.doneToggle).toHaveAttribute("aria-expanded", "false");
    await expect(tasks.open.getByText("Revisar la hipoteca del piso")).toHaveCount(0);
    await tasks.doneToggle.click();
    await expect(tasks.done.getByText("Revisar la hipoteca del piso")).toBeVisible();
    await expect(tasks.task("Revisar la hipoteca del piso")).toHaveAttribute("data-status", "done");

    // Offline: create, edit and delete; a reload keeps it all.
    await a.context.setOffline(true);
    await indicator.toHaveState("offline");
    await tasks.create({ title: "Llamar a la gestoría" });
    await tasks.edit("Llamar a la gestoría", { priority: "Media", notes: "Preguntar por el IRPF" });
    const afterDeleted = await tasks.neighbourOf("Pedir el certificado");
    await tasks.remove("Pedir el certificado");
    // Deleted, the task takes its button away: focus goes to the same button of its neighbour.
    await expect(tasks.task(afterDeleted).getByTestId("task-delete")).toBeFocused();
    await expect(indicator.pending).not.toHaveCount(0);
    await a.page.reload();
    await expect(tasks.task("Llamar a la gestoría").getByTestId("task-priority")).toHaveText("Prioridad Media");
    await expect(tasks.task("Pedir el certificado")).toHaveCount(0);
    await a.context.setOffline(false);
    await indicator.toHaveState("synced");
    await expect(indicator.pending).toHaveCount(0);

    // A second device, from the server.
    const b = await devices.open();
    const onB = new TasksPage(b.page);
    await onB.goto();
    await expect(onB.task("Llamar a la gestoría")).toContainText("Preguntar por el IRPF");
    await expect(onB.task("Renovar el seguro del hogar").getByTestId("task-overdue")).toBeVisible();
    await expect(onB.task("Pedir el certificado")).toHaveCount(0);
    await expect(onB.doneToggle).toHaveText("Hechas (1)");
    await expect(onB.done).toHaveCount(0);

    // Filters from deep links: the list and the controls follow the URL.
    await onB.goto("?overdue=1");
    await expect(b.page.getByTestId("task")).toHaveCount(1);
    await expect(onB.task("Renovar el seguro del hogar")).toBeVisible();
    await expect(b.page.getByRole("switch", { name: "Solo vencidas" })).toBeChecked();
    await onB.goto("?status=done");
    await expect(b.page.getByTestId("task")).toHaveCount(1);
    await expect(onB.done.getByText("Revisar la hipoteca del piso")).toBeVisible();
    await onB.goto(`?asset=${flatId}&priority=high`);
    await expect(b.page.getByTestId("task")).toHaveCount(1);
    await expect(onB.task("Renovar el seguro del hogar")).toBeVisible();
    await expect(b.page.getByRole("combobox", { name: "Activo" })).toHaveValue("Piso en Cádiz");
    // Changing a filter writes the URL; clearing them shows everything again.
    await b.page.getByRole("switch", { name: "Solo vencidas" }).click();
    await expect(b.page).toHaveURL(/overdue=true|overdue=1/);
    await onB.goto("?priority=low&status=todo");
    await expect(b.page.getByTestId("tasks-no-match")).toBeVisible();
    await b.page.getByRole("button", { name: "Quitar los filtros" }).click();
    await expect(b.page.getByTestId("task")).toHaveCount(2);

    // Accessible in light and dark, desktop and phone, with the done group open.
    await forEachA11yVariant(b.page, async (variant) => {
      await onB.goto();
      await onB.doneToggle.click();
      await expect(onB.done).toBeVisible();
      await expectVariantApplied(b.page, variant);
      await b.page.screenshot({ path: test.info().outputPath(`tasks-${variant.theme}-${variant.viewport}.png`) });
      await expectNoSeriousA11yViolations(b.page, `tasks · ${variant.label}`);
    });
  });

  test("an offline delete the server refuses (the editor became a viewer) is listed with the reason; Descartar brings the task back", async ({ browser, devices }) => {
    const baseURL = devices.baseURL;
    const editor = await createOnboardedAccount(baseURL, `e2e-tasks-refused-${Date.now()}@example.com`, "lengthy e2e editor passphrase 4127");
    const owner = await devices.open();
    const editorContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, editor), locale: "es-ES", timezoneId: "Europe/Madrid" });
    try {
      const headers = { Origin: baseURL };
      const team = await owner.context.request.post("/api/v1/workspaces", { headers, data: { name: "Familia" } });
      expect(team.status()).toBe(201);
      const teamId = ((await team.json()) as { workspace: { id: string } }).workspace.id;
      const invited = await owner.context.request.post(`/api/v1/workspaces/${teamId}/invitations`, { headers, data: { email: editor.email, role: "editor" } });
      expect(invited.ok(), await invited.text()).toBe(true);
      const inbox = (await (await editorContext.request.get("/api/v1/invitations")).json()) as { id: string }[];
      expect((await editorContext.request.post(`/api/v1/invitations/${inbox[0]!.id}/accept`, { headers })).ok()).toBe(true);

      await owner.page.addInitScript((id) => window.localStorage.setItem("patrimonio.activeWorkspace", id), teamId);
      const onOwner = new TasksPage(owner.page);
      await onOwner.goto();
      await onOwner.create({ title: "Revisar el testamento" });
      await new SyncIndicator(owner.page).toHaveState("synced");

      const page = await editorContext.newPage();
      await page.addInitScript((id) => window.localStorage.setItem("patrimonio.activeWorkspace", id), teamId);
      const onEditor = new TasksPage(page);
      const indicator = new SyncIndicator(page);
      await onEditor.goto();
      await expect(onEditor.task("Revisar el testamento")).toBeVisible();
      await indicator.toHaveState("synced");

      // Offline, the editor deletes the task; meanwhile the owner makes them a viewer.
      await editorContext.setOffline(true);
      await indicator.toHaveState("offline");
      await onEditor.remove("Revisar el testamento");
      const detail = (await (await owner.context.request.get(`/api/v1/workspaces/${teamId}`)).json()) as { members: { userId: string; email: string }[] };
      const member = detail.members.find((m) => m.email === editor.email)!;
      const demoted = await owner.context.request.patch(`/api/v1/workspaces/${teamId}/members/${member.userId}`, { headers, data: { role: "viewer" } });
      expect(demoted.ok(), await demoted.text()).toBe(true);

      // Back online, the server refuses the delete: the badge opens the panel, which says why.
      await editorContext.setOffline(false);
      await expect(indicator.rejected).toHaveText("1 cambio rechazado");
      await expect(onEditor.task("Revisar el testamento")).toHaveCount(0);
      await indicator.rejected.click();
      const panel = page.getByRole("dialog", { name: "Cambios rechazados" });
      await expect(panel).toBeVisible();
      const change = panel.getByTestId("rejected-change");
      await expect(change).toHaveCount(1);
      await expect(change).toContainText("Tarea");
      await expect(change).toContainText("Revisar el testamento");
      await expect(change).toContainText("Eliminación del registro");
      await expect(change.getByRole("list", { name: "Motivo del rechazo" })).toHaveText("Tu rol en este espacio de trabajo (lector/a) no permite modificar registros");
      // Accessible in light and dark, desktop and phone: the refusal is kept on the device across a reload.
      await forEachA11yVariant(page, async (variant) => {
        await page.reload();
        await expectVariantApplied(page, variant);
        await indicator.rejected.click();
        await expect(panel.getByTestId("rejected-change")).toHaveCount(1);
        await expectNoSeriousA11yViolations(page, `refused changes panel · ${variant.label}`);
      });
      await page.setViewportSize({ width: 1280, height: 800 });

      // Descartar: the entry leaves, the badge goes and the task shows again as the server has it.
      await change.getByRole("button", { name: "Descartar el cambio de «Revisar el testamento»" }).click();
      await expect(panel.getByTestId("rejected-empty")).toBeVisible();
      await expect(indicator.rejected).toHaveCount(0);
      await panel.getByRole("button", { name: "Cerrar" }).last().click();
      await expect(panel).toBeHidden();
      await expect(onEditor.task("Revisar el testamento")).toBeVisible();
    } finally {
      await editorContext.close();
    }
  });

  test("a viewer sees the workspace's tasks read-only, with the reason", async ({ browser, devices }) => {
    const baseURL = devices.baseURL;
    const viewer = await createOnboardedAccount(baseURL, `e2e-tasks-viewer-${Date.now()}@example.com`, "lengthy e2e viewer passphrase 6613");
    const owner = await devices.open();
    const viewerContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, viewer), locale: "es-ES", timezoneId: "Europe/Madrid" });
    try {
      const headers = { Origin: baseURL };
      const team = await owner.context.request.post("/api/v1/workspaces", { headers, data: { name: "Familia" } });
      expect(team.status()).toBe(201);
      const teamId = ((await team.json()) as { workspace: { id: string } }).workspace.id;
      const invited = await owner.context.request.post(`/api/v1/workspaces/${teamId}/invitations`, { headers, data: { email: viewer.email, role: "viewer" } });
      expect(invited.ok(), await invited.text()).toBe(true);
      const inbox = (await (await viewerContext.request.get("/api/v1/invitations")).json()) as { id: string }[];
      expect((await viewerContext.request.post(`/api/v1/invitations/${inbox[0]!.id}/accept`, { headers })).ok()).toBe(true);

      await owner.page.addInitScript((id) => window.localStorage.setItem("patrimonio.activeWorkspace", id), teamId);
      const onOwner = new TasksPage(owner.page);
      await onOwner.goto();
      await onOwner.create({ title: "Revisar el testamento", priority: "Alta" });
      await new SyncIndicator(owner.page).toHaveState("synced");

      const page = await viewerContext.newPage();
      await page.addInitScript((id) => window.localStorage.setItem("patrimonio.activeWorkspace", id), teamId);
      const onViewer = new TasksPage(page);
      await onViewer.goto();
      const shared = onViewer.task("Revisar el testamento");
      await expect(shared).toBeVisible();
      await expect(shared.getByTestId("task-status-text")).toHaveText("Pendiente");
      await expect(page.getByTestId("read-only-notice")).toContainText("tu rol en este espacio de trabajo es «lector»");
      const add = page.getByTestId("task-new");
      await expect(add).toBeDisabled();
      await expect(add).toHaveAccessibleDescription(/tu rol en este espacio de trabajo es «lector»/);
      await expect(shared.getByRole("combobox")).toHaveCount(0);
      await expect(shared.getByTestId("task-edit")).toHaveCount(0);
      await expect(shared.getByTestId("task-delete")).toHaveCount(0);
    } finally {
      await viewerContext.close();
    }
  });
});
