// Beneficiaries and legacy instructions (issue 13), in real Chromium against the real binary: created,
// edited and deleted online and offline, seen by a second device after sync; the 100 % rule on the
// device (the ownership messages as you type and on save) and when two devices' offline edits merge
// over 100 %, in Spanish and English; the readiness count on the sidebar; a viewer reads but cannot
// write; axe in light and dark at 1280 and 320 wide.
import type { Locator, Page } from "@playwright/test";
import { createOnboardedAccount, storageStateFor } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, syncTest as test, type Device } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage } from "./support/sync-page";
import { WorkspaceSwitcher } from "./support/workspaces";

const EXCEEDS_ES = "La suma de los porcentajes excede el 100%";
const EXCEEDS_EN = "The sum of the percentages exceeds 100%";

/** Page model of /beneficiaries (Spanish texts unless said otherwise). */
class BeneficiariesPage {
  readonly indicator: SyncIndicator;
  readonly dialog: Locator;
  readonly badge: Locator;
  readonly over: Locator;

  constructor(readonly page: Page) {
    this.indicator = new SyncIndicator(page);
    this.dialog = page.getByTestId("beneficiary-dialog");
    this.badge = page.locator("[data-nav='beneficiaries']").getByTestId("readiness-count");
    this.over = page.getByTestId("allocations-over");
  }

  async open(tab?: "instructions" | "readiness"): Promise<void> {
    await this.page.goto(tab ? `/beneficiaries?tab=${tab}` : "/beneficiaries");
    await expect(this.page.getByTestId("beneficiaries-screen")).toBeVisible();
    await expect(this.page.locator("[aria-busy='true']")).toHaveCount(0);
  }

  card(name: string): Locator {
    return this.page.getByTestId("beneficiary").filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }

  row(i: number): Locator {
    return this.dialog.getByTestId("allocation-row").nth(i);
  }

  /** Fills the open dialog; allocations are [target label, percentage typed]. */
  async fill(values: { name?: string; relationship?: string; email?: string; phone?: string; address?: string; allocations?: [string, string][] }): Promise<void> {
    const d = this.dialog;
    if (values.name !== undefined) await d.getByLabel("Nombre completo").fill(values.name);
    if (values.relationship !== undefined) await d.getByLabel("Parentesco").selectOption({ label: values.relationship });
    if (values.email !== undefined) await d.getByLabel("Correo electrónico").fill(values.email);
    if (values.phone !== undefined) await d.getByLabel("Teléfono").fill(values.phone);
    if (values.address !== undefined) await d.getByLabel("Dirección postal").fill(values.address);
    for (const [target, percent] of values.allocations ?? []) {
      const i = await d.getByTestId("allocation-row").count();
      await d.getByTestId("add-allocation").click();
      await this.row(i).getByLabel(`Asignación ${i + 1}: activo`).selectOption({ label: target });
      await this.row(i).getByLabel(`Asignación ${i + 1}: porcentaje`).fill(percent);
    }
  }

  async add(values: Parameters<BeneficiariesPage["fill"]>[0]): Promise<void> {
    await this.page.getByTestId("add-beneficiary").click();
    await this.fill(values);
    await this.dialog.getByTestId("beneficiary-save").click();
    await expect(this.dialog).toBeHidden();
    await expect(this.card(values.name!)).toBeVisible();
  }

  async edit(name: string): Promise<void> {
    await this.card(name).getByRole("button", { name: `Editar a ${name}` }).click();
    await expect(this.dialog).toBeVisible();
  }

  async save(): Promise<void> {
    await this.dialog.getByTestId("beneficiary-save").click();
    await expect(this.dialog).toBeHidden();
  }

  async addInstruction(text: string, options: { priority?: string; asset?: string; beneficiary?: string } = {}): Promise<void> {
    await this.page.getByRole("tab", { name: "Instrucciones" }).click();
    await this.page.getByTestId("add-instruction").click();
    const d = this.page.getByTestId("instruction-dialog");
    await d.getByLabel("Instrucción").fill(text);
    if (options.priority) await d.getByLabel("Prioridad").selectOption({ label: options.priority });
    if (options.asset) await d.getByLabel("Activo").selectOption({ label: options.asset });
    if (options.beneficiary) await d.getByLabel("Beneficiario").selectOption({ label: options.beneficiary });
    await d.getByTestId("instruction-save").click();
    await expect(d).toBeHidden();
    await expect(this.page.getByTestId("instruction").filter({ hasText: text })).toBeVisible();
  }
}

/** Two assets through the device's commands (the sync test page: same device database). */
async function seedAssets(device: Device): Promise<{ flat: string; account: string }> {
  const commands = await SyncTestPage.beside(device.page);
  await commands.status.toHaveState("synced");
  const flat = await commands.create("assets", {
    name: "Piso en Vigo",
    assetClass: "real_estate",
    category: "residential",
    currency: "EUR",
    participation: "100",
    currentValue: "300000",
    valuationDate: "2025-01-15",
    taxLocation: { country: "ES", state: "Pontevedra", city: "Vigo" },
  });
  const account = await commands.create("assets", {
    name: "Cuenta Abanca",
    assetClass: "bank_accounts",
    category: "savings_account",
    currency: "EUR",
    participation: "100",
    currentValue: "20000",
    valuationDate: "2025-01-15",
    institution: "Abanca",
  });
  await commands.status.toHaveState("synced");
  await commands.page.close();
  return { flat, account };
}

test.describe("beneficiaries and legacy instructions", () => {
  test.describe.configure({ timeout: 120_000 });

  test("created, edited, deleted online and offline; seen on a second device; the 100 % rule, also after a merge, in both languages", async ({ devices }) => {
    const a = await devices.open();
    await seedAssets(a);
    const onA = new BeneficiariesPage(a.page);
    await onA.open();
    await new AppShell(a.page).serviceWorkerReady();
    await expect(a.page.getByTestId("beneficiaries-empty")).toBeVisible();
    // Two assets nobody receives: the sidebar counts them.
    await expect(onA.badge).toHaveAttribute("data-count", "2");

    // Create online.
    await onA.add({ name: "Ana Ruiz", relationship: "Hijo/a", email: "ana@example.com", allocations: [["Piso en Vigo", "60"]] });
    await expect(onA.card("Ana Ruiz").getByTestId("allocation")).toHaveText("Piso en Vigo60 %");

    // The rule as you type: Ana has 60 % of the flat, so 50 % more exceeds it; 40 % completes it.
    await a.page.getByTestId("add-beneficiary").click();
    await onA.fill({ name: "Luis Ruiz", relationship: "Hijo/a", allocations: [["Piso en Vigo", "50"]] });
    const sum = onA.row(0).getByTestId("allocation-sum");
    await expect(sum).toHaveText(EXCEEDS_ES);
    await onA.row(0).getByLabel("Asignación 1: porcentaje").fill("30");
    await expect(sum).toHaveText("Faltan 10% para llegar al 100%");
    await onA.row(0).getByLabel("Asignación 1: porcentaje").fill("40");
    await expect(sum).toHaveText("Asignado al 100 %");
    await onA.save();
    // Flat fully allocated; the account still has nobody; Luis has no contact data.
    await expect(onA.badge).toHaveAttribute("data-count", "2");

    // Offline: edit (Ana gets a phone and 50 % of the account), delete Luis, write instructions.
    await a.context.setOffline(true);
    await onA.indicator.toHaveState("offline");
    await onA.edit("Ana Ruiz");
    await onA.fill({ phone: "+34 600 123 456", allocations: [["Cuenta Abanca", "50"]] });
    await onA.save();
    await expect(onA.card("Ana Ruiz")).toContainText("+34 600 123 456");
    await onA.card("Luis Ruiz").getByRole("button", { name: "Eliminar a Luis Ruiz" }).click();
    await a.page.getByRole("alertdialog").getByRole("button", { name: "Eliminar beneficiario" }).click();
    await expect(onA.card("Luis Ruiz")).toHaveCount(0);
    // The card went with focus: the same button of the card now in its place has it.
    await expect(onA.card("Ana Ruiz").getByRole("button", { name: "Eliminar a Ana Ruiz" })).toBeFocused();
    await onA.addInstruction("Llamad primero a la notaría de Vigo.", { priority: "Alta" });
    await onA.addInstruction("Vended el piso solo si Ana está de acuerdo.", { asset: "Piso en Vigo", beneficiary: "Ana Ruiz", priority: "Media" });
    await onA.addInstruction("Borrador que se elimina.");
    await a.page.getByTestId("instruction").filter({ hasText: "Borrador que se elimina." }).getByRole("button", { name: "Eliminar" }).click();
    await a.page.getByRole("alertdialog").getByRole("button", { name: "Eliminar instrucción" }).click();
    await expect(a.page.getByTestId("instruction")).toHaveCount(2);
    // The other general instruction, the draft's neighbour in its group, has focus now.
    await expect(a.page.getByTestId("instruction").filter({ hasText: "Llamad primero a la notaría de Vigo." }).getByRole("button", { name: "Eliminar" })).toBeFocused();
    // The flat is 60 % allocated now (Luis's 40 % went with him), the account 50 %.
    await expect(onA.badge).toHaveAttribute("data-count", "2");
    await expect(onA.indicator.pending).not.toHaveCount(0);

    // Back online; a second device from the server has it all.
    await a.context.setOffline(false);
    await onA.indicator.toHaveState("synced");
    await expect(onA.indicator.pending).toHaveCount(0);
    const b = await devices.open();
    const onB = new BeneficiariesPage(b.page);
    await onB.open("instructions");
    const groups = b.page.getByTestId("instruction-group");
    await expect(groups).toHaveCount(2);
    await expect(groups.nth(0)).toHaveAttribute("data-kind", "general");
    await expect(groups.nth(1)).toContainText("Sobre Piso en Vigo");
    await expect(groups.nth(1)).toContainText("Para Ana Ruiz");
    await expect(groups.nth(1)).toContainText("Prioridad: Media");
    await b.page.getByRole("tab", { name: "Beneficiarios" }).click();
    await expect(b.page.getByTestId("beneficiary")).toHaveCount(1);
    await expect(onB.card("Ana Ruiz").getByTestId("allocation")).toHaveText(["Piso en Vigo60 %", "Cuenta Abanca50 %"]);
    await b.page.getByRole("tab", { name: "Preparación" }).click();
    // 60 % of 300.000 + 50 % of 20.000 = 190.000 of 320.000 = 59,38 %.
    await expect(b.page.getByTestId("readiness-share")).toHaveText("59,38 %");
    await expect(b.page.getByTestId("readiness-under")).toContainText("Piso en Vigo · 60 % tiene beneficiario · Faltan 40% para llegar al 100%");

    // The device refuses a save over 100 % with the same message, on the field (and as you type).
    await onB.open();
    await b.page.getByTestId("add-beneficiary").click();
    await onB.fill({ name: "Pedro Ruiz", relationship: "Hermano/a", allocations: [["Piso en Vigo", "50"]] });
    await onB.dialog.getByTestId("beneficiary-save").click();
    await expect(onB.dialog.getByText(EXCEEDS_ES)).toHaveCount(2);
    await onB.dialog.getByRole("button", { name: "Cancelar" }).click();
    await expect(onB.card("Pedro Ruiz")).toHaveCount(0);

    // Both offline: A gives Marta 40 % of the flat (60 + 40 = 100 on A), B raises Ana to 70 % (70 on
    // B). Each is valid where it is made; merged, the flat is allocated 110 %: both devices say so.
    await a.context.setOffline(true);
    await b.context.setOffline(true);
    await onA.indicator.toHaveState("offline");
    await onB.indicator.toHaveState("offline");
    await onA.open();
    await onA.add({ name: "Marta Ruiz", relationship: "Nieto/a", address: "Rúa do Príncipe 1, Vigo", allocations: [["Piso en Vigo", "40"]] });
    await onB.edit("Ana Ruiz");
    await onB.row(0).getByLabel("Asignación 1: porcentaje").fill("70");
    await onB.save();
    await expect(onA.over).toHaveCount(0);
    await expect(onB.over).toHaveCount(0);
    await a.context.setOffline(false);
    await b.context.setOffline(false);
    await onA.indicator.toHaveState("synced");
    await onB.indicator.toHaveState("synced");
    for (const side of [onA, onB]) {
      await expect(side.over).toHaveText(`En Piso en Vigo: ${EXCEEDS_ES}`);
      await expect(side.card("Ana Ruiz").getByText("Más del 100 %")).toBeVisible();
    }
    // In English, the same rule's English message.
    await new AppShell(b.page).chooseLanguage("en");
    await expect(onB.over).toHaveText(`Piso en Vigo: ${EXCEEDS_EN}`);
    await b.page.getByRole("tab", { name: "Readiness" }).click();
    await expect(b.page.getByTestId("readiness-over")).toContainText(`Piso en Vigo · 110% · ${EXCEEDS_EN}`);
    await new AppShell(b.page).chooseLanguage("es");
  });

  test("a viewer reads but cannot write; axe in light and dark, desktop and phone", async ({ devices, browser }) => {
    const owner = await devices.open();
    const baseURL = devices.baseURL;
    const headers = { Origin: baseURL };
    const created = await owner.context.request.post("/api/v1/workspaces", { headers, data: { name: "Familia Ruiz" } });
    expect(created.ok()).toBe(true);
    const teamId = ((await created.json()) as { workspace: { id: string } }).workspace.id;
    const viewer = await createOnboardedAccount(baseURL, `e2e-beneficiaries-viewer-${Date.now()}@example.com`, "lengthy e2e viewer passphrase 5521");
    const viewerContext = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, viewer), locale: "es-ES", timezoneId: "Europe/Madrid" });
    try {
      expect((await owner.context.request.post(`/api/v1/workspaces/${teamId}/invitations`, { headers, data: { email: viewer.email, role: "viewer" } })).ok()).toBe(true);
      const inbox = (await (await viewerContext.request.get("/api/v1/invitations")).json()) as { id: string }[];
      expect((await viewerContext.request.post(`/api/v1/invitations/${inbox[0]!.id}/accept`, { headers })).ok()).toBe(true);

      // The owner writes in the team workspace.
      const onOwner = new BeneficiariesPage(owner.page);
      await onOwner.open();
      await new WorkspaceSwitcher(owner.page).choose("Familia Ruiz");
      await onOwner.add({ name: "Fundación Vigo", relationship: "Entidad benéfica", email: "info@example.org" });
      await onOwner.addInstruction("Donad los libros a la biblioteca.");
      await onOwner.indicator.toHaveState("synced");

      const page = await viewerContext.newPage();
      const onViewer = new BeneficiariesPage(page);
      await onViewer.open();
      await new WorkspaceSwitcher(page).choose("Familia Ruiz");
      await expect(onViewer.card("Fundación Vigo")).toBeVisible();
      await expect(page.getByTestId("read-only-notice")).toHaveText(
        "Solo lectura: tienes el rol de lector en este espacio de trabajo, así que puedes ver los beneficiarios y las instrucciones pero no modificarlos.",
      );
      await expect(page.getByTestId("add-beneficiary")).toHaveCount(0);
      await expect(page.getByTestId("beneficiaries-screen").getByRole("button", { name: /Editar|Eliminar|Añadir/ })).toHaveCount(0);
      await page.getByRole("tab", { name: "Instrucciones" }).click();
      await expect(page.getByTestId("instruction")).toHaveText(/Donad los libros/);
      await expect(page.getByTestId("add-instruction")).toHaveCount(0);
      await expect(page.getByTestId("beneficiaries-screen").getByRole("button", { name: /Editar|Eliminar|Añadir/ })).toHaveCount(0);

      // Accessibility of the three tabs with records, and the add dialog, for the owner.
      await forEachA11yVariant(owner.page, async (variant) => {
        for (const tab of ["", "?tab=instructions", "?tab=readiness"]) {
          await owner.page.goto(`/beneficiaries${tab}`);
          await expect(owner.page.getByTestId("beneficiary").or(owner.page.getByTestId("instruction")).or(owner.page.getByTestId("readiness")).first()).toBeVisible();
          await expectVariantApplied(owner.page, variant);
          await expectNoSeriousA11yViolations(owner.page, `beneficiaries${tab} · ${variant.label}`);
        }
        if (variant.viewport === "phone") {
          await owner.page.goto("/beneficiaries");
          await owner.page.getByTestId("add-beneficiary").click();
          await owner.page.getByTestId("add-allocation").click();
          await expectNoSeriousA11yViolations(owner.page, `beneficiary dialog · ${variant.label}`);
        }
      });
    } finally {
      await viewerContext.close();
    }
  });
});
