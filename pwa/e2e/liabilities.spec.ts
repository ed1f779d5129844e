// Liabilities (/liabilities) in real Chromium against the real binary: a debt created through the
// form (the schema's end-before-start message on the way), tied to an asset, its monthly payment and
// balance-over-time table; edited; then offline a debt created, edited and the first one deleted, kept
// across a reload; back online a second device has it all, deletes online, and the first device sees
// it go. The rule's message in English after switching the language. axe in light and dark at 1280
// and 320 with data and the plan shown. A viewer of a team workspace sees the debts read-only.
import type { Locator, Page } from "@playwright/test";
import { paymentPlan } from "../src/liabilities/amortization";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { Devices, expect, freshAccount, syncTest as test, type Device } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage } from "./support/sync-page";
import { chooseOption, pickFirstMatch } from "./support/pickers";
import { formatMoney } from "../src/i18n/format";

/** Intl writes no-break spaces ("1.234,56 €"): compare with plain ones. */
const plain = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
// As the app writes euros in Spanish (grouped from four digits: "1.100,00 €").
const euros = (amount: string) => plain(formatMoney(amount, "EUR", "es"));

/** Today in the browser's time zone (the contexts run in Europe/Madrid). */
/** A number field shows its value formatted until focused: focus it first, then type over it. */
async function typeNumber(box: Locator, text: string): Promise<void> {
  await box.click();
  await box.fill(text);
}

function madridToday(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
}

class LiabilitiesPage {
  readonly form;
  readonly plan;
  readonly indicator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId("liability-form");
    this.plan = page.getByTestId("liability-plan");
    this.indicator = new SyncIndicator(page);
  }

  async open(): Promise<void> {
    await this.page.goto("/liabilities");
    await expect(this.page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(this.page.getByTestId("liabilities-loading")).toHaveCount(0);
  }

  row(name: string) {
    return this.page.getByRole("row").filter({ has: this.page.getByTestId("liability-name").getByText(name, { exact: true }) });
  }

  async fill(values: { name?: string; kind?: string; creditor?: string; amount?: string; rate?: string; start?: string; end?: string; asset?: string }) {
    const f = this.form;
    if (values.name !== undefined) await f.getByRole("textbox", { name: "Nombre", exact: true }).fill(values.name);
    if (values.kind !== undefined) {
      await chooseOption(f.getByRole("combobox", { name: "Tipo de deuda" }), values.kind);
    }
    if (values.creditor !== undefined) await f.getByRole("textbox", { name: "Acreedor" }).fill(values.creditor);
    if (values.amount !== undefined) await typeNumber(f.getByRole("textbox", { name: "Importe pendiente" }), values.amount);
    if (values.rate !== undefined) await typeNumber(f.getByRole("textbox", { name: "Tipo de interés anual" }), values.rate);
    if (values.start !== undefined) await f.getByRole("textbox", { name: "Fecha de inicio" }).fill(values.start);
    if (values.end !== undefined) await f.getByRole("textbox", { name: "Fecha de vencimiento" }).fill(values.end);
    if (values.asset !== undefined) {
      await pickFirstMatch(f.getByRole("combobox", { name: "Activo asociado" }), values.asset);
    }
  }

  async create(values: Parameters<LiabilitiesPage["fill"]>[0]): Promise<void> {
    await this.page.getByTestId("liability-new").click();
    await expect(this.form).toBeVisible();
    await this.fill(values);
    await this.form.getByRole("button", { name: "Añadir deuda" }).click();
    await expect(this.form).toBeHidden();
    await expect(this.plan).toBeVisible();
  }

  async action(name: string, action: "Ver amortización" | "Editar" | "Eliminar"): Promise<void> {
    await this.row(name).getByRole("button", { name: `Acciones de ${name}` }).click();
    await this.page.getByRole("menuitem", { name: action }).click();
  }

  async edit(name: string, values: Parameters<LiabilitiesPage["fill"]>[0]): Promise<void> {
    await this.action(name, "Editar");
    await expect(this.form).toBeVisible();
    await this.fill(values);
    await this.form.getByRole("button", { name: "Guardar cambios" }).click();
    await expect(this.form).toBeHidden();
  }

  async delete(name: string): Promise<void> {
    await this.action(name, "Eliminar");
    const dialog = this.page.getByRole("alertdialog", { name: `¿Eliminar «${name}»?` });
    await dialog.getByRole("button", { name: "Eliminar deuda" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.row(name)).toHaveCount(0);
  }
}

async function openOnline(device: Device): Promise<LiabilitiesPage> {
  const screen = new LiabilitiesPage(device.page);
  await screen.open();
  await new AppShell(device.page).serviceWorkerReady();
  await screen.indicator.toHaveState("synced");
  return screen;
}

test.describe("liabilities", () => {
  test.describe.configure({ timeout: 120_000 });

  test("created, edited and deleted online and offline, seen by a second device, the rule in both languages, accessible", async ({ devices }) => {
    const a = await devices.open();
    const commands = await SyncTestPage.beside(a.page);
    await commands.create("assets", {
      name: "Piso en Vigo",
      assetClass: "real_estate",
      category: "residential",
      currency: "EUR",
      participation: "100",
      currentValue: "320000",
      valuationDate: "2025-01-10",
    });
    const screen = await openOnline(a);
    await expect(a.page.getByTestId("liabilities-empty")).toBeVisible();

    // Create: the schema's rule (end before start) with its message, then a valid debt tied to the flat.
    await a.page.getByTestId("liability-new").click();
    await screen.fill({ name: "Hipoteca del piso", creditor: "Abanca", amount: "180.000", rate: "2,5", start: "01/06/2020", end: "01/06/2019" });
    await screen.form.getByRole("button", { name: "Añadir deuda" }).click();
    await expect(screen.form.getByText("La fecha de fin no puede ser anterior a la fecha de inicio")).toBeVisible();
    await screen.fill({ end: "01/06/2045", asset: "Piso en Vigo" });
    await screen.form.getByRole("button", { name: "Añadir deuda" }).click();
    await expect(screen.form).toBeHidden();

    // The plan: the annuity over the months left from today, and the balance per year down to zero.
    const expected = paymentPlan({ amountOutstanding: "180000", rate: "2.5", startDate: "2020-06-01", endDate: "2045-06-01" }, madridToday());
    if (!expected.ok) throw new Error(expected.reason);
    await expect(screen.plan).toContainText("Amortización de «Hipoteca del piso»");
    expect(plain(await screen.plan.getByTestId("figure-payment").locator("dd").textContent())).toBe(euros(expected.payment));
    await expect(screen.plan.getByTestId("plan-year").last()).toContainText("0,00 €");
    await expect(screen.plan.getByTestId("plan-year").first()).toContainText(expected.schedule[0]!.date.slice(0, 4));
    await expect(screen.row("Hipoteca del piso").getByTestId("liability-asset")).toHaveText("Piso en Vigo");
    const group = a.page.locator('[data-testid="liability-group"][data-kind="mortgage"]');
    expect(plain(await group.getByTestId("liability-group-total").textContent())).toContain("180.000,00 €");

    // Edit online.
    await screen.edit("Hipoteca del piso", { amount: "175.000" });
    expect(plain(await screen.row("Hipoteca del piso").getByTestId("liability-outstanding").textContent())).toBe("175.000,00 €");

    // Accessibility with data and the plan shown: light and dark, desktop and phone.
    const planUrl = a.page.url();
    await forEachA11yVariant(a.page, async (variant) => {
      await a.page.goto(planUrl);
      await expect(screen.plan.getByTestId("plan-table")).toBeVisible();
      await expectVariantApplied(a.page, variant);
      await expectNoSeriousA11yViolations(a.page, `liabilities · ${variant.label}`);
      if (variant.viewport === "phone") {
        // The table scrolls sideways inside its box; the debt's name stays beside the amount scrolled to.
        const row = screen.row("Hipoteca del piso");
        const viewport = a.page.getByRole("region", { name: "Deudas: Hipoteca" });
        await row.getByTestId("liability-outstanding").scrollIntoViewIfNeeded();
        expect(await viewport.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
        const box = (await viewport.boundingBox())!;
        const name = (await row.getByTestId("liability-name").boundingBox())!;
        const amount = (await row.getByTestId("liability-outstanding").boundingBox())!;
        expect(name.x).toBeGreaterThanOrEqual(box.x);
        expect(name.x).toBeLessThan(box.x + 40);
        expect(amount.x).toBeGreaterThan(name.x + name.width);
        expect(amount.x + amount.width).toBeLessThanOrEqual(box.x + box.width);
      }
    });
    await a.page.setViewportSize({ width: 1280, height: 800 });

    // Offline: create a card (no rate: no plan, and it says why), edit it, delete the mortgage.
    await screen.open();
    await a.context.setOffline(true);
    await screen.indicator.toHaveState("offline");
    await screen.create({ name: "Visa Oro", kind: "Tarjeta de crédito", amount: "1.250,40" });
    await expect(screen.plan.getByTestId("plan-unavailable")).toHaveText("Sin tipo de interés no se puede calcular la cuota: añádelo al editar la deuda.");
    await screen.edit("Visa Oro", { amount: "980" });
    await screen.delete("Hipoteca del piso");
    await expect(a.page.locator('[data-testid="liability-group"]')).toHaveCount(1);
    await a.page.reload();
    await expect(screen.row("Visa Oro")).toBeVisible();
    await expect(screen.row("Hipoteca del piso")).toHaveCount(0);
    expect(plain(await screen.row("Visa Oro").getByTestId("liability-outstanding").textContent())).toBe("980,00 €");
    await screen.indicator.toHaveState("offline");
    await a.context.setOffline(false);
    await screen.indicator.toHaveState("synced");

    // A second device, from the server: the card as edited offline, no mortgage.
    const b = await devices.open();
    const onB = new LiabilitiesPage(b.page);
    await onB.open();
    await expect(onB.row("Visa Oro")).toBeVisible();
    expect(plain(await onB.row("Visa Oro").getByTestId("liability-outstanding").textContent())).toBe("980,00 €");
    await expect(onB.row("Hipoteca del piso")).toHaveCount(0);

    // The rule in English.
    await new AppShell(b.page).chooseLanguage("en");
    await expect(b.page.locator("html")).toHaveAttribute("lang", "en");
    await b.page.getByTestId("liability-new").click();
    const formEn = b.page.getByTestId("liability-form");
    // The rule runs once every field is valid: a whole debt, but ending before it starts.
    await formEn.getByRole("textbox", { name: "Name", exact: true }).fill("Car loan");
    await typeNumber(formEn.getByRole("textbox", { name: "Amount outstanding" }), "9000");
    await formEn.getByRole("textbox", { name: "Start date" }).fill("01/01/2024");
    await formEn.getByRole("textbox", { name: "End date" }).fill("01/01/2023");
    await formEn.getByRole("button", { name: "Add debt" }).click();
    await expect(formEn.getByText("The end date cannot be before the start date")).toBeVisible();
    await formEn.getByRole("button", { name: "Cancel" }).click();
    await new AppShell(b.page).chooseLanguage("es");

    // Delete online on B; A sees it go.
    await onB.delete("Visa Oro");
    await expect(a.page.getByTestId("liabilities-empty")).toBeVisible();
  });

  test("a viewer sees the team's debts read-only, with the reason", async ({ browser, devices }) => {
    const owner = devices.account;
    const viewer = await freshAccount(devices.baseURL, "liabilities-viewer");
    const api = async (method: string, path: string, token: string, body?: unknown) => {
      const res = await fetch(`${devices.baseURL}/api/v1${path}`, {
        method,
        headers: { Origin: devices.baseURL, Cookie: `patrimonio_session=${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? undefined : ((await res.json()) as unknown);
    };
    const { workspace } = (await api("POST", "/workspaces", owner.sessionToken, { name: "Familia" })) as { workspace: { id: string } };
    await api("POST", `/workspaces/${workspace.id}/invitations`, owner.sessionToken, { email: viewer.email, role: "viewer" });
    const invitations = (await api("GET", "/invitations", viewer.sessionToken)) as { id: string }[];
    await api("POST", `/invitations/${invitations[0]!.id}/accept`, viewer.sessionToken);
    const inTeam = (id: string) => window.localStorage.setItem("patrimonio.activeWorkspace", id);

    const o = await devices.open();
    await o.context.addInitScript(inTeam, workspace.id);
    const ownerScreen = new LiabilitiesPage(o.page);
    await ownerScreen.open();
    await ownerScreen.create({ name: "Préstamo del coche", kind: "Préstamo", amount: "12.000", rate: "0", end: "01/01/2040" });
    await ownerScreen.indicator.toHaveState("synced");
    const id = await ownerScreen.plan.getAttribute("data-liability-id");

    const viewers = new Devices(browser, devices.baseURL, viewer);
    try {
      const v = await viewers.open();
      await v.context.addInitScript(inTeam, workspace.id);
      const screen = new LiabilitiesPage(v.page);
      await screen.open();
      await expect(screen.row("Préstamo del coche")).toBeVisible();
      await expect(v.page.getByTestId("read-only-notice")).toContainText("tu rol en este espacio de trabajo es «lector»");
      await expect(v.page.getByTestId("liability-new")).toHaveCount(0);
      await screen.row("Préstamo del coche").getByRole("button", { name: "Acciones de Préstamo del coche" }).click();
      await expect(v.page.getByRole("menuitem")).toHaveText(["Ver amortización"]);
      await v.page.keyboard.press("Escape");
      // The edit link shows the plan, without a form or edit buttons.
      await v.page.goto(`/liabilities?edit=${id}`);
      await expect(screen.plan).toBeVisible();
      await expect(screen.form).toHaveCount(0);
      await expect(v.page.getByTestId("plan-edit")).toHaveCount(0);
      await expect(v.page.getByTestId("plan-delete")).toHaveCount(0);
    } finally {
      await viewers.closeAll();
    }
  });
});
