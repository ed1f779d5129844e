// The asset detail screen end to end (real server binary, Chromium): /assets/{assetId}/?tab=details|settings.
// The records are written by another device of the same user (a @patrimonio/clientdb device in Node,
// over the real sync socket) and reach the browser by sync; what the browser writes is read back the
// same way. Covers: the tabs kept in the URL; the kind's own fields edited with the add flow's form;
// adding a dated valuation (history table and chart); associated debt with its total and net equity
// (the debts at the owner's share, as on the dashboard) checked by hand, each debt linked to its
// form on /liabilities; the ownership sum messages in
// Spanish and English; settings (rename, category, legal structure with the look-through figures,
// currency) with the schema's messages; a conflict made by two members' browser contexts editing the
// same field (one offline) shown where the field is with who made it (this device, a member's,
// another of yours), restored; a viewer's read-only view and Access
// Denied; deleting an asset and what happens to its records; axe in light and dark, desktop and phone.
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { EntityOf } from "@patrimonio/clientdb";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { createOnboardedAccount, storageStateFor, type ApiAccount } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { REPO_ROOT } from "./support/server";

const run = promisify(execFile);

const PASSWORD = "lengthy e2e passphrase 5107";

/** A flat owned half and half, with a first valuation. Participation value: 300.000 × 50 % = 150.000 €. */
const FLAT: EntityOf<"assets"> = {
  name: "Piso en Valencia",
  assetClass: "real_estate",
  category: "residential",
  currency: "EUR",
  participation: "50",
  otherOwners: [{ name: "Marta Ruiz", percentage: "50" }],
  purchaseValue: "200000",
  purchaseDate: "2015-06-01",
  currentValue: "300000",
  valuationDate: "2025-01-15",
  area: { value: "95", unit: "m2" },
  yearOfConstruction: 1998,
  taxLocation: { country: "ES", state: "Valencia", city: "Valencia" },
};

async function api(baseURL: string, method: string, path: string, token: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${baseURL}/api/v1${path}`, {
    method,
    headers: { Origin: baseURL, Cookie: `patrimonio_session=${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

async function newUser(baseURL: string, label: string): Promise<ApiAccount> {
  return createOnboardedAccount(baseURL, `asset-detail-${label}-${randomBytes(4).toString("hex")}@example.com`, PASSWORD);
}

/** What another device does: create records (a string "$ref:<name>" in fields is the id of the
 * record created earlier as <name>), then sync, then report every record it has. */
interface DeviceProgram {
  workspaceId?: string;
  creates?: { ref: string; collection: string; fields: Record<string, unknown> }[];
}

interface DeviceRecord {
  id: string;
  deleted: boolean;
  fields: Record<string, unknown>;
}

interface DeviceReport {
  workspaceId: string;
  ids: Record<string, string>;
  records: Record<string, DeviceRecord[]>;
}

// The other device runs in its own Node process (tsx): the shared schema's JSON imports need a
// loader Playwright's does not provide. It is the real @patrimonio/clientdb on fake-indexeddb,
// syncing over the real socket with a session of its own.
const DEVICE_SCRIPT = `
import { MemoryLockManager, SyncClient } from "@patrimonio/clientdb";
import { nodeSocket, openNodeDevice, signIn, syncUrlOf } from "@patrimonio/clientdb/node";
const input = JSON.parse(process.env.DEVICE_INPUT);
const session = await signIn(input.baseURL, input.email, input.password);
const workspaceId = input.program.workspaceId ?? session.workspaces.find((w) => w.kind === "personal").id;
const { db } = await openNodeDevice({ name: "other-device-" + Math.random().toString(16).slice(2) });
const client = new SyncClient(db, {
  url: syncUrlOf(input.baseURL),
  workspaces: () => [workspaceId],
  socket: nodeSocket({ origin: input.baseURL, cookie: session.cookie }),
  locks: new MemoryLockManager(),
});
client.start();
await client.idle();
const ids = {};
const resolve = (v) =>
  typeof v === "string" && v.startsWith("$ref:") ? ids[v.slice(5)] : Array.isArray(v) ? v.map(resolve) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)])) : v;
await db.batch(async () => {
  for (const c of input.program.creates ?? []) {
    const r = await db.create(c.collection, workspaceId, resolve(c.fields));
    if (!r.ok) throw new Error("refused " + c.ref + ": " + JSON.stringify(r.issues));
    ids[c.ref] = r.id;
  }
});
await client.idle();
const records = {};
for (const collection of ["assets", "valuations", "liabilities", "legacyInstructions", "legalStructures"]) {
  records[collection] = (await db.list(collection, workspaceId, { includeDeleted: true })).map((r) => ({ id: r.id, deleted: r.deleted, fields: r.fields }));
}
await client.stop();
db.close();
process.stdout.write(JSON.stringify({ workspaceId, ids, records }));
process.exit(0);
`;

let deviceScriptPath: string | undefined;

async function onAnotherDevice(baseURL: string, account: ApiAccount, program: DeviceProgram = {}): Promise<DeviceReport> {
  if (!deviceScriptPath) {
    deviceScriptPath = path.join(REPO_ROOT, "test-results", `asset-detail-device-${process.pid}.mts`);
    await mkdir(path.dirname(deviceScriptPath), { recursive: true });
    await writeFile(deviceScriptPath, DEVICE_SCRIPT);
  }
  const { stdout } = await run(path.join(REPO_ROOT, "node_modules", ".bin", "tsx"), [deviceScriptPath], {
    cwd: REPO_ROOT,
    env: { ...process.env, DEVICE_INPUT: JSON.stringify({ baseURL, email: account.email, password: PASSWORD, program }) },
    maxBuffer: 16 * 1024 * 1024,
  });
  return JSON.parse(stdout) as DeviceReport;
}

/** The live (not deleted) records of a collection in a report. */
function live(report: DeviceReport, collection: string): DeviceRecord[] {
  return (report.records[collection] ?? []).filter((r) => !r.deleted);
}

interface Seed {
  assetId: string;
  structureId: string;
  workspaceId: string;
}

/** The flat, its first valuation and a legal structure owned at 60 %. */
async function seedFlat(baseURL: string, account: ApiAccount, options: { workspaceId?: string; asset?: Partial<EntityOf<"assets">> } = {}): Promise<Seed> {
  const report = await onAnotherDevice(baseURL, account, {
    ...(options.workspaceId ? { workspaceId: options.workspaceId } : {}),
    creates: [
      { ref: "structure", collection: "legalStructures", fields: { name: "Inversiones Levante SL", structureType: "company", country: "ES", ownershipPercentage: "60" } },
      { ref: "asset", collection: "assets", fields: { ...FLAT, ...options.asset } },
      { ref: "valuation", collection: "valuations", fields: { assetId: "$ref:asset", date: "2025-01-15", value: "300000", currency: "EUR", source: "manual" } },
    ],
  });
  return { assetId: report.ids.asset!, structureId: report.ids.structure!, workspaceId: report.workspaceId };
}

async function contextFor(browser: Browser, baseURL: string, account: ApiAccount, locale = "es-ES"): Promise<BrowserContext> {
  return browser.newContext({ baseURL, storageState: storageStateFor(baseURL, account), locale, timezoneId: "Europe/Madrid" });
}

/** Page model of the asset detail screen. */
class AssetDetail {
  readonly root: Locator;
  readonly heading: Locator;
  readonly tabs: Locator;
  readonly summary: Locator;
  readonly valuations: Locator;
  readonly valuationRows: Locator;
  readonly debt: Locator;
  readonly ownership: Locator;
  readonly settings: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId("asset-detail");
    this.heading = page.getByRole("heading", { level: 1 });
    this.tabs = page.getByRole("tablist");
    this.summary = page.getByTestId("section-summary");
    this.valuations = page.getByTestId("valuation-history");
    this.valuationRows = page.getByTestId("valuation-row");
    this.debt = page.getByTestId("section-debt");
    this.ownership = page.getByTestId("section-ownership");
    this.settings = page.getByTestId("asset-settings");
  }

  async open(assetId: string, tab?: "details" | "settings"): Promise<void> {
    await this.page.goto(`/assets/${assetId}/${tab ? `?tab=${tab}` : ""}`);
    await expect(this.root).toBeVisible();
  }

  fact(id: string, within: Locator = this.page.locator("body")): Locator {
    return within.getByTestId(`fact-${id}`).locator("dd");
  }

  tab(): string | null {
    return new URL(this.page.url()).searchParams.get("tab");
  }
}

test.describe("asset detail", () => {
  test("details: summary, the kind's fields, financial information, a dated valuation in the history table and chart, associated debt with its total and net equity, instructions, options", async ({ browser, baseURL }) => {
    test.slow();
    const owner = await newUser(baseURL!, "details");
    const { assetId } = await seedFlat(baseURL!, owner);
    const context = await contextFor(browser, baseURL!, owner);
    const page = await context.newPage();
    const detail = new AssetDetail(page);
    try {
      await detail.open(assetId);
      await expect(detail.heading).toHaveText("Piso en Valencia");
      await expect(page.getByRole("tab", { name: "Detalles" })).toHaveAttribute("aria-selected", "true");
      await expect(detail.fact("class")).toHaveText("Inmuebles");
      await expect(detail.fact("category")).toHaveText("Residencial");
      await expect(detail.fact("currentValue", detail.summary)).toHaveText("300.000,00 €");
      await expect(detail.fact("participationValue", detail.summary)).toHaveText("150.000,00 €");
      await expect(detail.fact("valuationDate", detail.summary)).toContainText("15 ene 2025");
      await expect(page.getByTestId("valuation-age")).toHaveText(/^\(hace \d+ (meses|años?)\)$/);
      // The kind's own fields, edited with the add flow's form of the kind (its inputs and messages).
      await expect(page.getByTestId("fact-area").locator("dd")).toHaveText("95 m²");
      await expect(page.getByTestId("fact-yearOfConstruction").locator("dd")).toHaveText("1998");
      await page.getByTestId("section-kind").getByRole("button", { name: "Editar datos" }).click();
      const kindDialog = page.getByRole("dialog", { name: "Editar los datos del tipo de activo" });
      await expect(kindDialog.getByLabel("Superficie", { exact: true })).toHaveValue("95");
      // The province stored by name ("Valencia", before codes) is the subdivision it names, shown in
      // the reader's language; saving writes its code.
      await expect(kindDialog.getByRole("combobox", { name: /^Provincia o estado/ })).toHaveValue("Valencia/València");
      await kindDialog.getByLabel("Superficie", { exact: true }).fill("102,5");
      await kindDialog.getByLabel("Año de construcción").fill("2300");
      await kindDialog.getByLabel("Identificador fiscal").fill("1234567YJ2713S0001WX");
      await kindDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(kindDialog.getByText(/^Debe ser menor o igual que 2\.?100$/)).toBeVisible();
      await kindDialog.getByLabel("Año de construcción").fill("2001");
      await kindDialog.getByRole("button", { name: "Guardar" }).click();
      await expect(kindDialog).toBeHidden();
      await expect(page.getByTestId("fact-area").locator("dd")).toHaveText("102,5 m²");
      await expect(page.getByTestId("fact-yearOfConstruction").locator("dd")).toHaveText("2001");
      await expect(page.getByTestId("fact-taxIdentifier").locator("dd")).toHaveText("1234567YJ2713S0001WX");
      await expect(page.getByTestId("fact-taxLocation").locator("dd")).toHaveText("Valencia, Valencia/València, España");
      // Financial information: a purchase after the valuation is refused with the schema's message.
      await page.getByRole("button", { name: "Editar importes y fechas" }).click();
      const financial = page.getByRole("dialog", { name: "Editar la información financiera" });
      await financial.getByLabel("Fecha de compra").fill("01/02/2026");
      await financial.getByLabel("Valor fiscal").fill("180.000");
      await financial.getByRole("button", { name: "Guardar" }).click();
      await expect(financial.getByText("La fecha de valoración no puede ser anterior a la fecha de compra")).toBeVisible();
      await financial.getByLabel("Fecha de compra").fill("01/06/2015");
      await financial.getByRole("button", { name: "Guardar" }).click();
      await expect(financial).toBeHidden();
      await expect(page.getByTestId("fact-taxValue").locator("dd")).toHaveText("180.000,00 €");
      await expect(page.getByTestId("fact-purchaseDate").locator("dd")).toContainText("1 jun 2015");

      // The tab lives in the URL: settings, reload, back to details.
      await page.getByRole("tab", { name: "Ajustes" }).click();
      await expect(detail.settings).toBeVisible();
      expect(detail.tab()).toBe("settings");
      await page.reload();
      await expect(detail.settings).toBeVisible();
      await page.getByRole("tab", { name: "Detalles" }).click();
      await expect(detail.summary).toBeVisible();
      expect(detail.tab()).toBeNull();

      // A newer dated valuation: it joins the history (table, chart) and becomes the current value.
      await expect(detail.valuationRows).toHaveCount(1);
      await expect(page.getByTestId("valuation-chart")).toHaveCount(0);
      const form = page.getByTestId("valuation-form");
      await form.getByLabel("Fecha de la valoración").fill("10/03/2025");
      await form.getByRole("textbox", { name: "Valor", exact: true }).fill("320.000");
      await form.getByRole("button", { name: "Añadir valoración" }).click();
      await expect(detail.valuationRows).toHaveCount(2);
      await expect(detail.valuationRows.nth(0)).toContainText("10 mar 2025");
      await expect(detail.valuationRows.nth(0)).toContainText("320.000,00 €");
      await expect(detail.valuationRows.nth(1)).toContainText("300.000,00 €");
      await expect(page.getByTestId("valuation-chart")).toBeVisible();
      await expect(page.getByTestId("valuation-table").locator("caption")).toHaveText("2 valoraciones, de la más reciente a la más antigua");
      await expect(detail.fact("currentValue", detail.summary)).toHaveText("320.000,00 €");
      await expect(detail.fact("participationValue", detail.summary)).toHaveText("160.000,00 €");
      // An older one joins the history without moving the current value.
      await form.getByLabel("Fecha de la valoración").fill("01/06/2015");
      await form.getByRole("textbox", { name: "Valor", exact: true }).fill("200000");
      await form.getByRole("button", { name: "Añadir valoración" }).click();
      await expect(detail.valuationRows).toHaveCount(3);
      await expect(detail.valuationRows.nth(2)).toContainText("1 jun 2015");
      await expect(detail.fact("currentValue", detail.summary)).toHaveText("320.000,00 €");
      // A value the schema refuses: the exact message.
      await form.getByRole("textbox", { name: "Valor", exact: true }).fill("");
      await form.getByRole("button", { name: "Añadir valoración" }).click();
      await expect(form.getByText("Este campo es obligatorio")).toBeVisible();
      await expect(detail.valuationRows).toHaveCount(3);

      // Associated debt: 45.000,50 + 4.999,50 = 50.000,00 €, of which the owner of 50 % bears 25.000,00 €
      // (the dashboard's rule); net equity 160.000,00 − 25.000,00 = 135.000,00 €.
      await expect(detail.fact("debtTotal")).toHaveText("0,00 €");
      await expect(detail.fact("netEquity")).toHaveText("160.000,00 €");
      const debtForm = page.getByTestId("debt-form");
      await debtForm.getByLabel("Importe pendiente").fill("45.000,50");
      await debtForm.getByLabel("Acreedor").fill("Banco Sabadell");
      await debtForm.getByRole("button", { name: "Añadir deuda" }).click();
      await expect(page.getByTestId("debt-row")).toHaveCount(1);
      await debtForm.getByLabel("Importe pendiente").fill("4999,5");
      await debtForm.getByLabel("Acreedor").fill("Préstamo familiar");
      await debtForm.getByRole("button", { name: "Añadir deuda" }).click();
      await expect(page.getByTestId("debt-row")).toHaveCount(2);
      await expect(page.getByTestId("debt-row").filter({ hasText: "Banco Sabadell" })).toContainText("45.000,50 €");
      await expect(page.getByTestId("debt-row").filter({ hasText: "Préstamo familiar" })).toContainText("4.999,50 €");
      await expect(detail.fact("debtTotal")).toHaveText("50.000,00 €");
      await expect(detail.fact("debtShare")).toHaveText("25.000,00 €");
      await expect(detail.fact("participationValue", detail.debt)).toHaveText("160.000,00 €");
      await expect(detail.fact("netEquity")).toHaveText("135.000,00 €");
      await expect(page.getByTestId("debt-share-rule")).toContainText("50 %");
      // Each debt opens its own form on the liabilities screen; the full form comes with the asset chosen.
      await expect(page.getByRole("link", { name: "Editar la deuda con Banco Sabadell" })).toHaveAttribute("href", /^\/liabilities\?edit=[0-9a-f-]{36}$/);
      await expect(page.getByTestId("debt-full-form")).toHaveAttribute("href", `/liabilities?new=1&assetId=${assetId}`);
      // A debt without a creditor: the schema's message.
      await debtForm.getByLabel("Importe pendiente").fill("10");
      await debtForm.getByRole("button", { name: "Añadir deuda" }).click();
      await expect(debtForm.getByText("Este campo es obligatorio")).toBeVisible();
      await expect(page.getByTestId("debt-row")).toHaveCount(2);

      // Instructions: add, then edit.
      const instructions = page.getByTestId("section-instructions");
      await expect(instructions).toContainText("No hay instrucciones para este activo.");
      await instructions.getByRole("button", { name: "Añadir instrucción" }).click();
      let dialog = page.getByRole("dialog", { name: "Nueva instrucción" });
      await dialog.getByLabel("Instrucción").fill("Vender el piso y repartirlo entre mis hijos.");
      await dialog.getByLabel("Prioridad").selectOption("high");
      await dialog.getByRole("button", { name: "Guardar" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("instruction")).toHaveCount(1);
      await expect(page.getByTestId("instruction")).toContainText("Vender el piso y repartirlo entre mis hijos.");
      await expect(page.getByTestId("instruction")).toContainText("Prioridad: Alta");
      await page.getByTestId("instruction").getByRole("button", { name: "Editar" }).click();
      dialog = page.getByRole("dialog", { name: "Editar la instrucción" });
      await dialog.getByLabel("Instrucción").fill("Alquilarlo y repartir la renta entre mis hijos.");
      await dialog.getByRole("button", { name: "Guardar" }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId("instruction")).toHaveCount(1);
      await expect(page.getByTestId("instruction")).toContainText("Alquilarlo y repartir la renta entre mis hijos.");

      // Options in a small dialog.
      await page.getByTestId("section-options").getByRole("button", { name: "Editar opciones" }).click();
      dialog = page.getByRole("dialog", { name: "Editar opciones" });
      await dialog.getByLabel("Riesgo").selectOption("2");
      await dialog.getByLabel("Liquidez").selectOption("1");
      await dialog.getByLabel("Uso").selectOption("income");
      await dialog.getByLabel("Estado").selectOption("rented");
      await dialog.getByRole("button", { name: "Guardar" }).click();
      await expect(dialog).toBeHidden();
      await expect(detail.fact("risk")).toHaveText("2 de 5");
      await expect(detail.fact("liquidity")).toHaveText("1 de 5");
      await expect(detail.fact("propertyUse")).toHaveText("Generación de ingresos");
      await expect(detail.fact("status")).toHaveText("Alquilado");

      // Everything reached the server: another device reads it back.
      const report = await onAnotherDevice(baseURL!, owner);
      const seen = {
        asset: live(report, "assets").find((a) => a.id === assetId)?.fields,
        valuations: live(report, "valuations").map((v) => `${String(v.fields.date)}=${String(v.fields.value)}`).sort(),
        debts: live(report, "liabilities").map((l) => `${String(l.fields.creditorName)}:${String(l.fields.amountOutstanding)}:${l.fields.assetId === assetId}`).sort(),
        instructions: live(report, "legacyInstructions").map((i) => i.fields.text),
      };
      expect(seen.asset).toMatchObject({ currentValue: "320000", valuationDate: "2025-03-10", risk: 2, liquidity: 1, propertyUse: "income", status: "rented" });
      expect(seen.asset).toMatchObject({ area: { value: "102.5", unit: "m2" }, yearOfConstruction: 2001, taxIdentifier: "1234567YJ2713S0001WX" });
      // The province stored by name before codes became its code when the kind dialog saved.
      expect(seen.asset?.taxLocation).toEqual({ ...FLAT.taxLocation, state: "ES-V" });
      expect(seen.asset).toMatchObject({ purchaseDate: "2015-06-01", purchaseValue: "200000", taxValue: "180000" });
      expect(seen.valuations).toEqual(["2015-06-01=200000", "2025-01-15=300000", "2025-03-10=320000"]);
      // Amounts keep the decimals as typed (the kit never rounds): "45.000,50" → "45000.50".
      expect(seen.debts).toEqual(["Banco Sabadell:45000.50:true", "Préstamo familiar:4999.5:true"]);
      expect(seen.instructions).toEqual(["Alquilarlo y repartir la renta entre mis hijos."]);
    } finally {
      await context.close();
    }
  });

  test("ownership: the sum exceeds 100 % or says how many percent are left, in Spanish and English", async ({ browser, baseURL }) => {
    const owner = await newUser(baseURL!, "ownership");
    const { assetId } = await seedFlat(baseURL!, owner);
    const context = await contextFor(browser, baseURL!, owner);
    const page = await context.newPage();
    const detail = new AssetDetail(page);
    try {
      await detail.open(assetId);
      await expect(detail.fact("participation")).toHaveText("50 %");
      await expect(detail.fact("otherOwners")).toHaveText("Marta Ruiz · 50 %");

      const edit = async () => {
        await detail.ownership.getByRole("button", { name: /Editar propiedad|Edit ownership/ }).click();
        const dialog = page.getByTestId("ownership-dialog");
        await expect(dialog).toBeVisible();
        return dialog;
      };
      let dialog = await edit();
      const sum = dialog.getByTestId("ownership-sum");
      await expect(sum).toHaveText("Los porcentajes suman el 100 %.");
      await dialog.getByLabel("Porcentaje del propietario 1").fill("60");
      await expect(sum).toHaveText("La suma de los porcentajes excede el 100%");
      await expect(sum).toHaveAttribute("data-state", "exceeds");
      await dialog.getByLabel("Porcentaje del propietario 1").fill("40");
      await expect(sum).toHaveText("Faltan 10% para llegar al 100%");
      // Saving is refused with the same message on the participation field.
      await dialog.getByRole("button", { name: "Guardar" }).click();
      await expect(dialog.getByText("Faltan 10% para llegar al 100%")).toHaveCount(2);
      // A third owner fills the gap.
      await dialog.getByRole("button", { name: "Añadir propietario" }).click();
      await dialog.getByLabel("Nombre del propietario 2").fill("Jorge Ruiz");
      await dialog.getByLabel("Porcentaje del propietario 2").fill("12,5");
      await expect(sum).toHaveText("La suma de los porcentajes excede el 100%");
      await dialog.getByLabel("Porcentaje del propietario 2").fill("10");
      await expect(sum).toHaveText("Los porcentajes suman el 100 %.");
      await dialog.getByRole("button", { name: "Guardar" }).click();
      await expect(dialog).toBeHidden();
      await expect(detail.fact("otherOwners")).toContainText("Marta Ruiz · 40 %");
      await expect(detail.fact("otherOwners")).toContainText("Jorge Ruiz · 10 %");

      // In English.
      await new AppShell(page).chooseLanguage("en");
      await expect(page.getByRole("tab", { name: "Details" })).toBeVisible();
      dialog = await edit();
      await dialog.getByLabel("Your share").fill("55");
      await expect(sum).toHaveText("The sum of the percentages exceeds 100%");
      await dialog.getByLabel("Your share").fill("37.5");
      await expect(sum).toHaveText("12.5% left to reach 100%");
      await dialog.getByRole("button", { name: "Save" }).click();
      await expect(dialog.getByText("12.5% left to reach 100%")).toHaveCount(2);
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(dialog).toBeHidden();
      await expect(detail.fact("participation")).toHaveText("50%");
    } finally {
      await context.close();
    }
  });

  test("settings: rename, category, legal structure with the look-through figures, currency, with the schema's messages", async ({ browser, baseURL }) => {
    const owner = await newUser(baseURL!, "settings");
    const { assetId, structureId } = await seedFlat(baseURL!, owner);
    const context = await contextFor(browser, baseURL!, owner);
    const page = await context.newPage();
    const detail = new AssetDetail(page);
    try {
      await detail.open(assetId, "settings");
      await expect(page.getByRole("tab", { name: "Ajustes" })).toHaveAttribute("aria-selected", "true");

      const rename = page.getByTestId("settings-rename");
      const name = rename.getByLabel("Nombre");
      await name.fill("");
      await name.blur();
      await expect(rename.getByText("Este campo es obligatorio")).toBeVisible();
      await name.fill("x".repeat(141));
      await expect(rename.getByText("Debe tener como máximo 140 caracteres")).toBeVisible();
      await name.fill("Piso en Valencia (centro)");
      await expect(rename.getByText("Debe tener como máximo 140 caracteres")).toHaveCount(0);
      await rename.getByRole("button", { name: "Cambiar el nombre" }).click();
      await expect(detail.heading).toHaveText("Piso en Valencia (centro)");

      const category = page.getByTestId("settings-category");
      await category.getByRole("combobox", { name: /^Categoría/ }).selectOption("custom");
      await category.getByRole("button", { name: "Cambiar la categoría" }).click();
      await expect(category.getByText("Este campo es obligatorio")).toBeVisible();
      await category.getByLabel("Nombre de la categoría").fill("Casa de campo");
      await category.getByRole("button", { name: "Cambiar la categoría" }).click();
      const header = page.locator("header").filter({ has: detail.heading });
      await expect(header).toContainText("Inmuebles · Casa de campo");
      await category.getByRole("combobox", { name: /^Categoría/ }).selectOption("commercial");
      await category.getByRole("button", { name: "Cambiar la categoría" }).click();
      await expect(header).toContainText("Inmuebles · Comercial");

      const structure = page.getByTestId("settings-structure");
      await structure.getByLabel("Estructura jurídica").selectOption(structureId);
      await structure.getByRole("button", { name: "Cambiar la estructura" }).click();
      await expect(page.getByText("Cambios guardados").first()).toBeVisible();

      const currency = page.getByTestId("settings-currency");
      await currency.getByLabel("Moneda").selectOption("USD");
      await currency.getByRole("button", { name: "Cambiar la moneda" }).click();

      // The details show it: held by the structure owned at 60 %: effective share 50 % × 60 % = 30 %,
      // its value 300.000 × 30 % = 90.000 (now in dollars).
      await page.getByRole("tab", { name: "Detalles" }).click();
      await expect(detail.fact("legalStructure")).toHaveText("Inversiones Levante SL");
      await expect(detail.fact("effectiveShare")).toHaveText("30 %");
      await expect(detail.fact("effectiveValue")).toHaveText("90.000,00 US$");
      await expect(detail.fact("currentValue", detail.summary)).toHaveText("300.000,00 US$");

      // And out of the structure again.
      await page.getByRole("tab", { name: "Ajustes" }).click();
      await structure.getByLabel("Estructura jurídica").selectOption("");
      await structure.getByRole("button", { name: "Cambiar la estructura" }).click();
      await page.getByRole("tab", { name: "Detalles" }).click();
      await expect(detail.fact("legalStructure")).toHaveText("En propiedad directa (sin estructura)");
      await expect(detail.fact("effectiveShare")).toHaveCount(0);

      const seen = live(await onAnotherDevice(baseURL!, owner), "assets").find((a) => a.id === assetId)?.fields;
      expect(seen).toMatchObject({ name: "Piso en Valencia (centro)", category: "commercial", currency: "USD" });
      expect(seen?.legalStructureId).toBeUndefined();
      expect(seen?.customCategory).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  test("a concurrent edit by another member's device that was offline is shown where the field is, naming who made it, and restore brings its value back", async ({ browser, baseURL }) => {
    test.slow();
    // A team workspace: the owner (Lucía Fernández) edits on her laptop, offline; the editor (Bea
    // García) on her phone. Each note names the device that wrote the losing value.
    const owner = await newUser(baseURL!, "conflict");
    const editor = await newUser(baseURL!, "conflict-editor");
    await api(baseURL!, "PATCH", "/users/", editor.sessionToken, {
      first_name: "Bea",
      last_name: "García",
      birthday: "1990-05-02",
      gender: "female",
      country: "ES",
      state: "Madrid",
    });
    const { workspace } = (await api(baseURL!, "POST", "/workspaces", owner.sessionToken, { name: "Familia Fernández" })) as { workspace: { id: string } };
    await api(baseURL!, "POST", `/workspaces/${workspace.id}/invitations`, owner.sessionToken, { email: editor.email, role: "editor" });
    const invitations = (await api(baseURL!, "GET", "/invitations", editor.sessionToken)) as { id: string }[];
    await api(baseURL!, "POST", `/invitations/${invitations[0]!.id}/accept`, editor.sessionToken);
    const { assetId } = await seedFlat(baseURL!, owner, { workspaceId: workspace.id });
    const laptopContext = await contextFor(browser, baseURL!, owner);
    const phoneContext = await contextFor(browser, baseURL!, editor);
    const laptop = new AssetDetail(await laptopContext.newPage());
    const phone = new AssetDetail(await phoneContext.newPage());
    let tabletContext: BrowserContext | undefined;
    try {
      await laptop.open(assetId, "settings");
      await phone.open(assetId, "settings");
      const syncState = (p: Page) => p.getByTestId("sync-status");
      await expect(syncState(laptop.page)).toHaveAttribute("data-state", "synced");
      await expect(syncState(phone.page)).toHaveAttribute("data-state", "synced");

      // The laptop goes offline and renames; the phone, online, renames it too (later: it wins).
      await laptopContext.setOffline(true);
      await expect(syncState(laptop.page)).toHaveAttribute("data-state", "offline");
      await laptop.page.getByTestId("settings-rename").getByLabel("Nombre").fill("Piso de Valencia (portátil)");
      await laptop.page.getByTestId("settings-rename").getByRole("button", { name: "Cambiar el nombre" }).click();
      await expect(laptop.heading).toHaveText("Piso de Valencia (portátil)");
      await phone.page.getByTestId("settings-rename").getByLabel("Nombre").fill("Piso de Valencia (móvil)");
      await phone.page.getByTestId("settings-rename").getByRole("button", { name: "Cambiar el nombre" }).click();
      await expect(phone.heading).toHaveText("Piso de Valencia (móvil)");
      await expect(syncState(phone.page)).toHaveAttribute("data-state", "synced");

      // Back online: both show the phone's name, and where the name is, the laptop's losing value.
      await laptopContext.setOffline(false);
      await expect(laptop.heading).toHaveText("Piso de Valencia (móvil)");
      for (const device of [laptop, phone]) {
        const note = device.page.getByTestId("settings-rename").getByTestId("field-conflict");
        await expect(note).toHaveAttribute("data-field", "name");
        await expect(note.getByTestId("conflict-lost-value")).toHaveText("Piso de Valencia (portátil)");
        await expect(note).toContainText("Nombre: una edición simultánea sustituyó un valor");
        await expect(device.page.getByTestId("conflict-count")).toHaveText("1 conflicto");
      }
      // Who: the laptop wrote it ("this device"); for Bea it is Lucía's device (the workspace's
      // device lookup, fetched when the note names a device the phone does not know).
      await expect(laptop.page.getByTestId("settings-rename").getByTestId("field-conflict")).toContainText("Escrito desde este dispositivo el");
      await expect(phone.page.getByTestId("settings-rename").getByTestId("field-conflict")).toContainText("Escrito desde un dispositivo de Lucía Fernández el");
      // A third device of the owner: "another of your devices".
      tabletContext = await contextFor(browser, baseURL!, owner);
      const tablet = new AssetDetail(await tabletContext.newPage());
      await tablet.open(assetId);
      await expect(tablet.summary.getByTestId("field-conflict")).toContainText("Escrito desde otro de tus dispositivos el");
      // The phone keeps the lookup: offline, after a reload, it still names Lucía.
      await phoneContext.setOffline(true);
      await phone.page.reload();
      await expect(phone.page.getByTestId("settings-rename").getByTestId("field-conflict")).toContainText("Escrito desde un dispositivo de Lucía Fernández el");
      await phoneContext.setOffline(false);
      await expect(syncState(phone.page)).toHaveAttribute("data-state", "synced");
      // The details tab shows it too (in the summary).
      await phone.page.getByRole("tab", { name: "Detalles" }).click();
      await expect(phone.summary.getByTestId("field-conflict")).toBeVisible();

      // The phone restores the laptop's value: it reaches both, and the conflict closes everywhere.
      await phone.summary.getByTestId("field-conflict").getByRole("button", { name: "Restaurar" }).click();
      await expect(phone.heading).toHaveText("Piso de Valencia (portátil)");
      await expect(laptop.heading).toHaveText("Piso de Valencia (portátil)");
      await expect(phone.page.getByTestId("field-conflict")).toHaveCount(0);
      await expect(laptop.page.getByTestId("field-conflict")).toHaveCount(0);
      await expect(laptop.page.getByTestId("conflict-count")).toHaveCount(0);
    } finally {
      await laptopContext.close();
      await phoneContext.close();
      await tabletContext?.close();
    }
  });

  test("a viewer sees the asset read-only and the settings tab is Access Denied; an unknown asset is Access Denied", async ({ browser, baseURL }) => {
    const owner = await newUser(baseURL!, "owner");
    const viewer = await newUser(baseURL!, "viewer");
    const { workspace } = (await api(baseURL!, "POST", "/workspaces", owner.sessionToken, { name: "Familia Ruiz" })) as { workspace: { id: string } };
    await api(baseURL!, "POST", `/workspaces/${workspace.id}/invitations`, owner.sessionToken, { email: viewer.email, role: "viewer" });
    const invitations = (await api(baseURL!, "GET", "/invitations", viewer.sessionToken)) as { id: string }[];
    await api(baseURL!, "POST", `/invitations/${invitations[0]!.id}/accept`, viewer.sessionToken);
    const { assetId } = await seedFlat(baseURL!, owner, { workspaceId: workspace.id });

    const context = await contextFor(browser, baseURL!, viewer);
    const page = await context.newPage();
    const detail = new AssetDetail(page);
    try {
      await detail.open(assetId);
      await expect(detail.heading).toHaveText("Piso en Valencia");
      await expect(page.getByTestId("read-only-notice")).toHaveText(
        "Solo lectura: tienes el rol de lector en este espacio de trabajo, así que puedes ver este activo pero no modificarlo.",
      );
      await expect(detail.fact("participationValue", detail.summary)).toHaveText("150.000,00 €");
      await expect(detail.valuationRows).toHaveCount(1);
      // No edit controls anywhere.
      await expect(page.getByRole("tab", { name: "Ajustes" })).toHaveCount(0);
      await expect(page.getByTestId("valuation-form")).toHaveCount(0);
      await expect(page.getByTestId("debt-form")).toHaveCount(0);
      await expect(page.getByTestId("section-delete")).toHaveCount(0);
      await expect(detail.root.getByRole("button", { name: /Editar|Añadir|Eliminar/ })).toHaveCount(0);

      // The settings tab is an editing screen: Access Denied, with a way back to the assets.
      await page.goto(`/assets/${assetId}/?tab=settings`);
      await expect(page.getByTestId("access-denied")).toBeVisible();
      await expect(page.getByRole("heading", { level: 1, name: "Acceso denegado" })).toBeVisible();

      // An asset that does not exist (or that the user may not see).
      await page.goto("/assets/01936f3e-0000-7000-8000-000000000000/");
      await expect(page.getByTestId("access-denied")).toBeVisible();
      await page.getByRole("link", { name: "Volver a tus activos" }).click();
      await expect(page).toHaveURL(/\/assets\/?$/);
    } finally {
      await context.close();
    }

    // Someone outside the workspace opening the link: Access Denied too.
    const stranger = await newUser(baseURL!, "stranger");
    const strangerContext = await contextFor(browser, baseURL!, stranger);
    try {
      const strangerPage = await strangerContext.newPage();
      await strangerPage.goto(`/assets/${assetId}/`);
      await expect(strangerPage.getByTestId("access-denied")).toBeVisible();
    } finally {
      await strangerContext.close();
    }
  });

  test("mark as sold: typed the Spanish way, read-only and out of the list's groups (in the collapsed section), synced to another device; undone", async ({ browser, baseURL }) => {
    test.slow();
    const owner = await newUser(baseURL!, "sold");
    const { assetId } = await seedFlat(baseURL!, owner);
    const context = await contextFor(browser, baseURL!, owner);
    const page = await context.newPage();
    const detail = new AssetDetail(page);
    try {
      await detail.open(assetId);
      await page.getByTestId("disposal-mark").click();
      const form = page.getByTestId("disposal-form");
      await expect(form).toBeVisible();
      await expectNoSeriousA11yViolations(page, "disposal form");
      // A sale needs its amount: the schema's message, in Spanish.
      await form.getByLabel(/^Fecha de baja/).fill("01/06/2025");
      await form.getByTestId("disposal-save").click();
      await expect(form.getByText("Este campo es obligatorio")).toBeVisible();
      await form.getByLabel(/^Importe de la venta/).fill("320.000,50");
      await form.getByTestId("disposal-save").click();
      await expect(form).toBeHidden();

      // The page says so and is read-only: no settings tab, no valuations to add.
      await expect(page.getByTestId("disposed-notice")).toHaveText(/^Vendido el 1 jun 2025 por 320\.000,50\s€/);
      await expect(page.getByRole("tab", { name: "Ajustes" })).toHaveCount(0);
      await expect(page.getByTestId("disposal-undo")).toBeVisible();

      // Another device of the user receives the sale as one field.
      const seen = await onAnotherDevice(baseURL!, owner);
      expect(live(seen, "assets").find((a) => a.id === assetId)?.fields.disposal).toEqual({ kind: "sold", date: "2025-06-01", amount: "320000.50" });

      // The list: out of the groups and totals, waiting in the collapsed section.
      await page.goto("/assets/");
      await expect(page.getByTestId("disposed-toggle")).toHaveText("Mostrar 1 activo vendido o dado de baja");
      await expect(page.getByTestId("asset-name")).toHaveCount(0);
      await page.getByTestId("disposed-toggle").click();
      await expect(page.getByTestId("disposed-section").getByText("Piso en Valencia")).toBeVisible();
      await expectNoSeriousA11yViolations(page, "asset list with a sold asset");

      // Undone: held again, editable again.
      await detail.open(assetId);
      await page.getByTestId("disposal-undo").click();
      await expect(page.getByTestId("disposed-notice")).toHaveCount(0);
      await expect(page.getByRole("tab", { name: "Ajustes" })).toBeVisible();
      await expect(page.getByTestId("disposal-mark")).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("delete asset: cannot be undone; its valuations go, its debt and instructions stay without it", async ({ browser, baseURL }) => {
    const owner = await newUser(baseURL!, "delete");
    const { assetId } = await seedFlat(baseURL!, owner);
    await onAnotherDevice(baseURL!, owner, {
      creates: [
        { ref: "debt", collection: "liabilities", fields: { name: "Hipoteca", kind: "mortgage", creditorName: "Banco Sabadell", amountOutstanding: "120000", currency: "EUR", assetId } },
        { ref: "instruction", collection: "legacyInstructions", fields: { text: "Que lo herede mi hija.", assetId } },
        { ref: "valuation", collection: "valuations", fields: { assetId, date: "2024-01-15", value: "290000", currency: "EUR", source: "appraisal" } },
      ],
    });
    const context = await contextFor(browser, baseURL!, owner);
    const page = await context.newPage();
    const detail = new AssetDetail(page);
    try {
      await detail.open(assetId);
      await expect(detail.valuationRows).toHaveCount(2);
      await expect(page.getByTestId("debt-row")).toHaveCount(1);
      await expect(page.getByTestId("instruction")).toHaveCount(1);
      // The owner's 50 %: 150.000 − 60.000 (their share of the 120.000 debt, the dashboard's rule) = 90.000.
      await expect(detail.fact("netEquity")).toHaveText("90.000,00 €");

      await page.getByTestId("section-delete").getByRole("button", { name: "Eliminar activo…" }).click();
      const dialog = page.getByRole("alertdialog", { name: "¿Eliminar «Piso en Valencia»?" });
      await expect(dialog).toContainText("Esta acción no se puede deshacer.");
      const consequences = dialog.getByTestId("delete-consequences");
      await expect(consequences).toContainText("Se eliminan 2 valoraciones de su historial.");
      await expect(consequences).toContainText("1 deuda asociada se conserva (sigue pendiente), ya sin activo asociado.");
      await expect(consequences).toContainText("1 instrucción se conserva como instrucción general.");
      // Cancel keeps everything.
      await dialog.getByRole("button", { name: "Cancelar" }).click();
      await expect(dialog).toBeHidden();
      await expect(detail.heading).toHaveText("Piso en Valencia");

      await page.getByTestId("section-delete").getByRole("button", { name: "Eliminar activo…" }).click();
      await dialog.getByRole("button", { name: "Eliminar definitivamente" }).click();
      await expect(page).toHaveURL(/\/assets\/?$/);
      await expect(page.getByText("Se ha eliminado «Piso en Valencia»")).toBeVisible();

      // The server has it: the asset and its valuations deleted; the debt and the instruction kept, untied.
      const report = await onAnotherDevice(baseURL!, owner);
      const seen = {
        asset: report.records.assets?.find((a) => a.id === assetId),
        valuations: live(report, "valuations"),
        liabilities: live(report, "liabilities").map((l) => l.fields),
        instructions: live(report, "legacyInstructions").map((i) => i.fields),
      };
      expect(seen.asset?.deleted).toBe(true);
      expect(seen.valuations).toEqual([]);
      expect(seen.liabilities).toEqual([{ name: "Hipoteca", kind: "mortgage", creditorName: "Banco Sabadell", amountOutstanding: "120000", currency: "EUR" }]);
      expect(seen.instructions).toEqual([{ text: "Que lo herede mi hija." }]);

      // The deleted asset's address: Access Denied.
      await page.goto(`/assets/${assetId}/`);
      await expect(page.getByTestId("access-denied")).toBeVisible();
    } finally {
      await context.close();
    }
  });

  test("accessibility: both tabs and the dialogs in light and dark, on a desktop and a phone", async ({ browser, baseURL }, testInfo) => {
    test.slow();
    const owner = await newUser(baseURL!, "a11y");
    const { assetId } = await seedFlat(baseURL!, owner, { asset: { risk: 3, liquidity: 2, propertyUse: "personal_use", status: "in_use" } });
    await onAnotherDevice(baseURL!, owner, {
      creates: [
        { ref: "valuation", collection: "valuations", fields: { assetId, date: "2025-06-01", value: "310000", currency: "EUR", source: "market" } },
        { ref: "debt", collection: "liabilities", fields: { name: "Hipoteca", kind: "mortgage", creditorName: "Banco Sabadell", amountOutstanding: "120000", currency: "EUR", assetId } },
        { ref: "instruction", collection: "legacyInstructions", fields: { text: "Que lo herede mi hija.", assetId, priority: "medium" } },
      ],
    });
    const context = await contextFor(browser, baseURL!, owner);
    const page = await context.newPage();
    const detail = new AssetDetail(page);
    try {
      await forEachA11yVariant(page, async (variant) => {
        await detail.open(assetId);
        await expect(page.getByTestId("valuation-chart")).toBeVisible();
        await expectVariantApplied(page, variant);
        await page.screenshot({ path: testInfo.outputPath(`asset-detail-${variant.theme}-${variant.viewport}.png`), fullPage: true });
        await expectNoSeriousA11yViolations(page, `asset detail · ${variant.label}`);
        await detail.ownership.getByRole("button", { name: "Editar propiedad" }).click();
        await page.getByTestId("ownership-dialog").getByLabel("Porcentaje del propietario 1").fill("60");
        await expect(page.getByTestId("ownership-sum")).toHaveAttribute("data-state", "exceeds");
        await expectNoSeriousA11yViolations(page, `ownership dialog · ${variant.label}`);
        // A typed percentage: Escape asks before dropping it (and the question is accessible too).
        await page.keyboard.press("Escape");
        const discard = page.getByRole("alertdialog", { name: "¿Descartar los cambios?" });
        await expect(discard.getByRole("button", { name: "Seguir editando" })).toBeFocused();
        await expectNoSeriousA11yViolations(page, `discard question · ${variant.label}`);
        await discard.getByRole("button", { name: "Descartar" }).click();
        await expect(page.getByTestId("ownership-dialog")).toBeHidden();
        await page.getByTestId("section-kind").getByRole("button", { name: "Editar datos" }).click();
        await expect(page.getByTestId("kind-dialog")).toBeVisible();
        await expectNoSeriousA11yViolations(page, `kind dialog · ${variant.label}`);
        await page.keyboard.press("Escape");
        await page.getByTestId("section-delete").getByRole("button", { name: "Eliminar activo…" }).click();
        await expect(page.getByRole("alertdialog")).toBeVisible();
        await expectNoSeriousA11yViolations(page, `delete dialog · ${variant.label}`);
        await page.keyboard.press("Escape");
        await detail.open(assetId, "settings");
        await expect(detail.settings).toBeVisible();
        await page.screenshot({ path: testInfo.outputPath(`asset-settings-${variant.theme}-${variant.viewport}.png`), fullPage: true });
        await expectNoSeriousA11yViolations(page, `asset settings · ${variant.label}`);
      });
    } finally {
      await context.close();
    }
  });
});
