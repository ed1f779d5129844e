// Flows (/flows) in real Chromium against the real binary: a rent tied to a flat created through the
// form (the schema's end-before-start message on the way), the next-12-months totals and the monthly
// and yearly projections; edited; offline a flow created, edited and another deleted, kept across a
// reload; back online a second device has it all, deletes online and the first device sees it go. The
// rule's message in English. axe in light and dark at 1280 and 320. A viewer cannot write.
import type { Locator, Page } from "@playwright/test";
import { monthlyProjection, nextTwelveMonths, yearlyProjection, type FlowTerms } from "../src/flows/projection";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { Devices, expect, freshAccount, syncTest as test, type Device } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage } from "./support/sync-page";
import { chooseOption, pickFirstMatch } from "./support/pickers";
import { neighbourOf } from "./support/lists";
import { formatMoney } from "../src/i18n/format";

const plain = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
// As the app writes euros in Spanish (grouped from four digits: "1.100,00 €").
const euros = (amount: string) => plain(formatMoney(amount, "EUR", "es"));

/** A number field shows its value formatted until focused: focus it first, then type over it. */
async function typeNumber(box: Locator, text: string): Promise<void> {
  await box.click();
  await box.fill(text);
}

function madridToday(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
}

interface FlowInput {
  name?: string;
  direction?: "Entrada" | "Salida";
  amount?: string;
  frequency?: string;
  start?: string;
  end?: string;
  asset?: string;
}

class FlowsPage {
  readonly form;
  readonly indicator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId("flow-form");
    this.indicator = new SyncIndicator(page);
  }

  async open(): Promise<void> {
    await this.page.goto("/flows");
    await expect(this.page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(this.page.getByTestId("flows-loading")).toHaveCount(0);
  }

  row(name: string) {
    return this.page.getByRole("row").filter({ has: this.page.getByTestId("flow-name").getByText(name, { exact: true }) });
  }

  async fill(values: FlowInput): Promise<void> {
    const f = this.form;
    if (values.name !== undefined) await f.getByRole("textbox", { name: "Concepto" }).fill(values.name);
    if (values.direction !== undefined) await f.getByRole("radio", { name: values.direction }).check();
    if (values.amount !== undefined) await typeNumber(f.getByRole("textbox", { name: "Importe de cada vez" }), values.amount);
    if (values.frequency !== undefined) {
      await chooseOption(f.getByRole("combobox", { name: "Frecuencia" }), values.frequency);
    }
    if (values.start !== undefined) await f.getByRole("textbox", { name: "Fecha (la primera vez)" }).fill(values.start);
    if (values.end !== undefined) await f.getByRole("textbox", { name: "Fecha final" }).fill(values.end);
    if (values.asset !== undefined) {
      await pickFirstMatch(f.getByRole("combobox", { name: "Activo" }), values.asset);
    }
  }

  async create(values: FlowInput): Promise<void> {
    await this.page.getByTestId("flow-new").click();
    await expect(this.form).toBeVisible();
    await this.fill(values);
    await this.form.getByRole("button", { name: "Añadir flujo" }).click();
    await expect(this.form).toBeHidden();
    if (values.name) await expect(this.row(values.name)).toBeVisible();
  }

  async edit(name: string, values: FlowInput): Promise<void> {
    await this.row(name).getByTestId("flow-name").click();
    await expect(this.form).toBeVisible();
    await this.fill(values);
    await this.form.getByRole("button", { name: "Guardar cambios" }).click();
    await expect(this.form).toBeHidden();
  }

  /** The flow listed after this one (or, for the last, before it). */
  neighbourOf(name: string): Promise<string> {
    return neighbourOf(this.page.getByTestId("flows-table").getByTestId("flow-name"), name);
  }

  async delete(name: string): Promise<void> {
    await this.row(name).getByRole("button", { name: `Acciones de ${name}` }).click();
    await this.page.getByRole("menuitem", { name: "Eliminar" }).click();
    const dialog = this.page.getByRole("alertdialog", { name: `¿Eliminar «${name}»?` });
    await dialog.getByRole("button", { name: "Eliminar flujo" }).click();
    await expect(dialog).toBeHidden();
    await expect(this.row(name)).toHaveCount(0);
  }

  async amountOf(name: string): Promise<string> {
    return plain(await this.row(name).getByTestId("flow-amount").textContent());
  }

  /** The net of the first row of a projection table (the current month or year), in euros. */
  async firstNet(table: "projection-monthly" | "projection-yearly"): Promise<string> {
    return plain(await this.page.getByTestId(table).locator('[data-testid="projection-row"][data-currency="EUR"]').first().getByTestId("projection-net").textContent());
  }
}

async function openOnline(device: Device): Promise<FlowsPage> {
  const screen = new FlowsPage(device.page);
  await screen.open();
  await new AppShell(device.page).serviceWorkerReady();
  await screen.indicator.toHaveState("synced");
  return screen;
}

test.describe("flows", () => {
  test.describe.configure({ timeout: 120_000 });

  test("created, edited and deleted online and offline, projected, seen by a second device, the rule in both languages, accessible", async ({ devices }) => {
    const a = await devices.open();
    const commands = await SyncTestPage.beside(a.page);
    const flat = await commands.create("assets", {
      name: "Piso en Vigo",
      assetClass: "real_estate",
      category: "residential",
      currency: "EUR",
      participation: "100",
      currentValue: "240000",
      valuationDate: "2025-01-10",
    });
    const screen = await openOnline(a);
    await expect(a.page.getByTestId("flows-empty")).toBeVisible();

    // Create: the rule's message first, then the rent of the flat and a yearly tax.
    await a.page.getByTestId("flow-new").click();
    await screen.fill({ name: "Alquiler del piso", amount: "1.000", start: "01/01/2025", end: "01/12/2024" });
    await screen.form.getByRole("button", { name: "Añadir flujo" }).click();
    await expect(screen.form.getByText("La fecha de fin no puede ser anterior a la fecha de inicio")).toBeVisible();
    await screen.fill({ end: "", asset: "Piso en Vigo" });
    await screen.form.getByRole("button", { name: "Añadir flujo" }).click();
    await expect(screen.form).toBeHidden();
    await screen.create({ name: "IBI", direction: "Salida", amount: "600", frequency: "Anual", start: "01/06/2025", asset: "Piso en Vigo" });
    // The form's dialog closed: focus is back on what opened it, not on the page (ui/Dialog.tsx).
    await expect(a.page.getByTestId("flow-new")).toBeFocused();

    // Edit online.
    await screen.edit("Alquiler del piso", { amount: "1.100" });
    await expect(screen.row("Alquiler del piso").getByTestId("flow-name")).toBeFocused();
    expect(await screen.amountOf("Alquiler del piso")).toBe(euros("1100"));

    // The projections, against the same flows counted by the domain code.
    const today = madridToday();
    const flows: FlowTerms[] = [
      { direction: "inflow", amount: "1100", currency: "EUR", frequency: "monthly", startDate: "2025-01-01" },
      { direction: "outflow", amount: "600", currency: "EUR", frequency: "annual", startDate: "2025-06-01" },
    ];
    const next = nextTwelveMonths(flows, today)[0]!;
    expect(plain(await a.page.getByTestId("flows-next12-EUR").getByTestId("figure-net").locator("dd").textContent())).toBe(euros(next.net));
    expect(await screen.firstNet("projection-monthly")).toBe(euros(monthlyProjection(flows, today, 1)[0]!.lines[0]!.net));
    await a.page.getByRole("tab", { name: "Anual" }).click();
    await expect(a.page).toHaveURL(/view=yearly/);
    expect(await screen.firstNet("projection-yearly")).toBe(euros(yearlyProjection(flows, today, 1)[0]!.lines[0]!.net));

    // On the flat: its two flows and the yield = (12 × 1.100 − 600) / 240.000 = 5,25 %.
    await a.page.goto(`/assets/${flat}/`);
    const onAsset = a.page.getByTestId("asset-flows");
    await expect(onAsset.getByTestId("asset-flow-row")).toHaveCount(2);
    expect(plain(await onAsset.getByTestId("figure-annualNet").locator("dd").first().textContent())).toBe(euros("12600"));
    expect(plain(await onAsset.getByTestId("figure-yield").locator("dd").first().textContent())).toBe("5,25 %");

    // Accessibility: light and dark, desktop and phone.
    await forEachA11yVariant(a.page, async (variant) => {
      await a.page.goto("/flows");
      await expect(a.page.getByTestId("projection-monthly")).toBeVisible();
      await expectVariantApplied(a.page, variant);
      await expectNoSeriousA11yViolations(a.page, `flows · ${variant.label}`);
    });
    await a.page.setViewportSize({ width: 1280, height: 800 });

    // Offline: create, edit, delete; a reload keeps it.
    await screen.open();
    await a.context.setOffline(true);
    await screen.indicator.toHaveState("offline");
    await screen.create({ name: "Nómina", amount: "2.400", frequency: "Mensual", start: "28/02/2025" });
    await screen.edit("Nómina", { amount: "2.500" });
    const inItsPlace = await screen.neighbourOf("IBI");
    await screen.delete("IBI");
    // The row went with focus: the table hands it to the same button of the row now in its place.
    await expect(screen.row(inItsPlace).getByRole("button", { name: `Acciones de ${inItsPlace}` })).toBeFocused();
    await a.page.reload();
    await expect(screen.row("Nómina")).toBeVisible();
    expect(await screen.amountOf("Nómina")).toBe(euros("2500"));
    await expect(screen.row("IBI")).toHaveCount(0);
    await a.context.setOffline(false);
    await screen.indicator.toHaveState("synced");

    // A second device, from the server.
    const b = await devices.open();
    const onB = new FlowsPage(b.page);
    await onB.open();
    await expect(onB.row("Nómina")).toBeVisible();
    expect(await onB.amountOf("Nómina")).toBe(euros("2500"));
    expect(await onB.amountOf("Alquiler del piso")).toBe(euros("1100"));
    await expect(onB.row("IBI")).toHaveCount(0);

    // The rule in English.
    await new AppShell(b.page).chooseLanguage("en");
    await expect(b.page.locator("html")).toHaveAttribute("lang", "en");
    await b.page.getByTestId("flow-new").click();
    const formEn = b.page.getByTestId("flow-form");
    // The rule runs once every field is valid: a whole flow, but ending before it starts.
    await formEn.getByRole("textbox", { name: "Description" }).fill("Bonus");
    await typeNumber(formEn.getByRole("textbox", { name: "Amount each time" }), "500");
    await formEn.getByRole("textbox", { name: "Date (the first time)" }).fill("01/03/2025");
    await formEn.getByRole("textbox", { name: "End date" }).fill("01/02/2025");
    await formEn.getByRole("button", { name: "Add flow" }).click();
    await expect(formEn.getByText("The end date cannot be before the start date")).toBeVisible();
    await formEn.getByRole("button", { name: "Cancel" }).click();
    await new AppShell(b.page).chooseLanguage("es");

    // Delete online on B; A sees it go.
    await onB.delete("Nómina");
    await expect(screen.row("Nómina")).toHaveCount(0);
    await expect(screen.row("Alquiler del piso")).toBeVisible();
  });

  test("a viewer sees the team's flows read-only, with the reason", async ({ browser, devices }) => {
    const owner = devices.account;
    const viewer = await freshAccount(devices.baseURL, "flows-viewer");
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
    const ownerScreen = new FlowsPage(o.page);
    await ownerScreen.open();
    await ownerScreen.create({ name: "Dividendos", amount: "300", frequency: "Trimestral", start: "15/01/2025" });
    await ownerScreen.indicator.toHaveState("synced");
    const id = await ownerScreen.row("Dividendos").getByTestId("flow-name").getAttribute("href");

    const viewers = new Devices(browser, devices.baseURL, viewer);
    try {
      const v = await viewers.open();
      await v.context.addInitScript(inTeam, workspace.id);
      const screen = new FlowsPage(v.page);
      await screen.open();
      await expect(screen.row("Dividendos")).toBeVisible();
      await expect(v.page.getByTestId("read-only-notice")).toContainText("tu rol en este espacio de trabajo es «lector»");
      await expect(v.page.getByTestId("flow-new")).toHaveCount(0);
      await expect(screen.row("Dividendos").getByRole("link")).toHaveCount(0);
      await expect(screen.row("Dividendos").getByRole("button", { name: "Acciones de Dividendos" })).toHaveCount(0);
      // The owner's edit link opens no form for a viewer.
      await v.page.goto(id!);
      await expect(screen.row("Dividendos")).toBeVisible();
      await expect(screen.form).toHaveCount(0);
    } finally {
      await viewers.closeAll();
    }
  });
});
