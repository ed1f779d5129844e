// The asset list, the class and the category screens end to end (real server binary, Chromium): the
// assets are written by another device of the same user (a @patrimonio/clientdb device in Node, over
// the real sync socket) and reach the browser by sync, as a phone's records reach a laptop. Then:
// search (accents and case do not matter), grouping per class with counts and totals, collapsing one
// group and all of them with collIds surviving a reload and Back, the CSV downloaded and parsed back
// in Spanish and English, the class and category routes, the empty and not-found messages, the
// viewer's read-only "Add asset", and axe in light and dark on a desktop and a phone.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { EntityOf } from "@patrimonio/clientdb";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { adminAccount, createOnboardedAccount, storageStateFor, type ApiAccount } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { REPO_ROOT } from "./support/server";

const PASSWORD = "lengthy e2e passphrase 4821";

type AssetFields = EntityOf<"assets">;

/** The seeded assets. Their classes: 1 real estate (3), 2 vehicles (1), 3 investments (2), 4 bank accounts (1), 6 collectibles (1). */
const ASSETS: AssetFields[] = [
  {
    name: "Piso en Sevilla",
    assetClass: "real_estate",
    category: "residential",
    currency: "EUR",
    participation: "50",
    otherOwners: [{ name: "Marta Ruiz", percentage: "50" }],
    currentValue: "250000",
    taxLocation: { country: "ES", state: "Sevilla", city: "Sevilla" },
  },
  { name: "Local comercial", assetClass: "real_estate", category: "commercial", currency: "EUR", participation: "100", currentValue: "180000.5" },
  {
    name: "Apartamento en Florida",
    assetClass: "real_estate",
    category: "residential",
    currency: "USD",
    participation: "100",
    currentValue: "420000",
    taxLocation: { country: "US", state: "Florida", city: "Coral Gables" },
  },
  { name: "Coche familiar", assetClass: "vehicles", category: "car", currency: "EUR", participation: "100", currentValue: "18500" },
  { name: "Fondo de Inversión Europa", assetClass: "investments", category: "fund", currency: "EUR", participation: "100", currentValue: "12345.67" },
  {
    name: "Acciones de Apple",
    assetClass: "investments",
    category: "equity",
    currency: "USD",
    participation: "100",
    currentValue: "15432.1234",
    isin: "US0378331005",
  },
  {
    name: "Cuenta nómina",
    assetClass: "bank_accounts",
    category: "current_account",
    currency: "EUR",
    participation: "100",
    currentValue: "2500.1",
    institution: "Openbank",
  },
  { name: "Reloj de mi abuelo", assetClass: "collectibles", category: "watches", currency: "EUR", participation: "100" },
];

interface Seeded {
  account: ApiAccount;
  workspaceId: string;
  ids: Map<string, string>;
}

async function api(baseURL: string, method: string, path: string, token: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${baseURL}/api/v1${path}`, {
    method,
    headers: { Origin: baseURL, Cookie: `patrimonio_session=${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/**
 * Creates the records on another device of the user: bench/assets/seed.ts's clientdb device in Node
 * (its own process: Playwright's loader cannot load shared-schema's JSON imports) writes them with
 * its commands and pushes them over the sync socket; the browser then receives them by sync.
 */
async function seedFromAnotherDevice(baseURL: string, account: ApiAccount, assets: AssetFields[], workspaceId?: string): Promise<Seeded> {
  const input = JSON.stringify({ baseUrl: baseURL, email: account.email, password: account.password, workspaceId, assets });
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(path.join(REPO_ROOT, "node_modules", ".bin", "tsx"), [path.join(REPO_ROOT, "bench", "assets", "seed-cli.ts")], {
      cwd: REPO_ROOT,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`seeding failed (${code}): ${err}`))));
    child.stdin.end(input);
  });
  const result = JSON.parse(output.trim().split("\n").at(-1)!) as { workspaceId: string; assetIds: string[] };
  const ids = new Map(assets.map((a, i) => [a.name, result.assetIds[i]!]));
  return { account, workspaceId: result.workspaceId, ids };
}

async function newUser(baseURL: string, label: string): Promise<ApiAccount> {
  return createOnboardedAccount(baseURL, `assets-list-${label}-${randomBytes(4).toString("hex")}@example.com`, PASSWORD);
}

async function contextFor(browser: Browser, baseURL: string, account: ApiAccount, init?: (context: BrowserContext) => Promise<unknown>): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, storageState: storageStateFor(baseURL, account), locale: "es-ES", acceptDownloads: true });
  await init?.(context);
  return context;
}

/** Page model of the asset list screens. */
class AssetList {
  readonly table;
  readonly search;
  readonly rows;
  readonly groups;
  readonly collapseAll;
  readonly expandAll;
  readonly download;

  constructor(readonly page: Page) {
    this.table = page.getByTestId("asset-table");
    this.search = page.getByRole("searchbox", { name: /Buscar activos|Search assets/ });
    this.rows = page.getByTestId("asset-row");
    this.groups = page.getByTestId("asset-group");
    this.collapseAll = page.getByTestId("collapse-all");
    this.expandAll = page.getByTestId("expand-all");
    this.download = page.getByTestId("download-csv");
  }

  async open(path = "/assets/"): Promise<void> {
    await this.page.goto(path);
  }

  /** The names of the asset rows shown, in order. */
  async names(): Promise<string[]> {
    return this.rows.getByTestId("asset-name").allTextContents();
  }

  group(name: string) {
    return this.groups.filter({ has: this.page.getByRole("heading", { name, exact: true }) });
  }

  /** The list's search params (collIds decoded as the app reads them: "1,3" or "[1,3]"). */
  collIds(): number[] {
    const raw = new URL(this.page.url()).searchParams.get("collIds");
    if (raw === null) return [];
    const text = raw.startsWith("[") ? raw.slice(1, -1) : raw;
    return text === "" ? [] : text.split(",").map(Number);
  }

  async downloadCsv(): Promise<{ name: string; bytes: Buffer }> {
    const [download] = await Promise.all([this.page.waitForEvent("download"), this.download.click()]);
    return { name: download.suggestedFilename(), bytes: await readFile(await download.path()) };
  }
}

/** RFC 4180 parsing (quoted fields, doubled quotes, CRLF), to read the download back. */
function parseCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The CSV's columns, in order, and their headers in each language (the app's texts). */
const CSV_COLUMNS = [
  "name",
  "class",
  "category",
  "currency",
  "currentValue",
  "participation",
  "participationValue",
  "valuationDate",
  "institution",
  "isin",
  "taxCountry",
  "taxState",
  "taxCity",
  "legalStructure",
  "status",
  "disposalDate",
  "disposalAmount",
] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

async function csvHeaders(language: "es" | "en"): Promise<string[]> {
  const texts = JSON.parse(await readFile(path.join(REPO_ROOT, "pwa", "src", "i18n", "locales", `${language}.json`), "utf8")) as {
    assets: { csv: Record<CsvColumn, string> };
  };
  return CSV_COLUMNS.map((c) => texts.assets.csv[c]);
}

/** Reads a download back: BOM, the language's headers, then records keyed by column. */
async function csvRecords(bytes: Buffer, separator: string, language: "es" | "en"): Promise<Record<CsvColumn, string>[]> {
  expect([...bytes.subarray(0, 3)], "UTF-8 byte-order mark").toEqual([0xef, 0xbb, 0xbf]);
  const text = bytes.subarray(3).toString("utf8");
  expect(text.endsWith("\r\n"), "CRLF line ends").toBe(true);
  const [header, ...rows] = parseCsv(text, separator);
  expect(header).toEqual(await csvHeaders(language));
  for (const row of rows) expect(row.length, `a row has as many fields as the header: ${row.join("|")}`).toBe(CSV_COLUMNS.length);
  return rows.map((r) => Object.fromEntries(CSV_COLUMNS.map((c, i) => [c, r[i]!])) as Record<CsvColumn, string>);
}

test.describe("asset list", () => {
  test("search, groups, collapse and expand, collIds through reload and Back", async ({ browser, baseURL }) => {
    // Several reloads, each opening the device database again: slow on a loaded machine.
    test.slow();
    const seeded = await seedFromAnotherDevice(baseURL!, await newUser(baseURL!, "main"), ASSETS);
    const context = await contextFor(browser, baseURL!, seeded.account);
    const page = await context.newPage();
    const list = new AssetList(page);
    try {
      await list.open();
      await expect(page.getByRole("heading", { level: 1, name: "Activos" })).toBeVisible();
      await expect(page.getByRole("tab", { name: "Activos", selected: true })).toBeVisible();

      // Grouped per class, in class order, each with its count and its total of participation values.
      await expect(list.rows).toHaveCount(ASSETS.length);
      await expect(list.groups.getByRole("heading")).toHaveText(["Inmuebles", "Vehículos", "Inversiones", "Cuentas bancarias", "Coleccionables"]);
      const realEstate = list.group("Inmuebles");
      await expect(realEstate.getByTestId("group-count")).toHaveText("3 activos");
      // Half of 250.000 € + 180.000,50 € and 420.000 US$: one line per currency (no exchange rates yet).
      await expect(realEstate.getByTestId("group-total")).toContainText(/305\.000,50\s€/);
      await expect(realEstate.getByTestId("group-total")).toContainText(/420\.000,00\sUS\$/);
      await expect(list.group("Coleccionables").getByTestId("group-total")).toContainText("—");
      const sevilla = list.rows.filter({ hasText: "Piso en Sevilla" });
      await expect(sevilla.getByTestId("asset-category")).toHaveText("Residencial");
      await expect(sevilla.getByTestId("asset-value")).toHaveText(/^125\.000,00\s€$/);
      await expect(list.rows.filter({ hasText: "Acciones de Apple" }).getByTestId("asset-value")).toHaveText(/^15\.432,12\sUS\$$/);

      // Search: accents and case do not matter; name, category, institution, ISIN and tax location.
      const searches: [string, string[]][] = [
        ["inversion", ["Fondo de Inversión Europa"]],
        ["RESIDENCIAL", ["Piso en Sevilla", "Apartamento en Florida"]],
        ["openbank", ["Cuenta nómina"]],
        ["us0378331005", ["Acciones de Apple"]],
        ["coral gables", ["Apartamento en Florida"]],
        ["nomina", ["Cuenta nómina"]],
      ];
      for (const [text, names] of searches) {
        await list.search.fill(text);
        await expect(list.table).toHaveAttribute("data-query", text);
        expect(await list.names(), `search "${text}"`).toEqual(names);
      }
      await list.search.fill("yate");
      await expect(page.getByTestId("asset-no-results")).toContainText("No se han encontrado activos para «yate»");
      await expect(list.rows).toHaveCount(0);

      // The search text is kept in the URL: a reload shows the same filter.
      await list.search.fill("inversion");
      await expect(page).toHaveURL(/[?&]q=inversion/);
      await page.reload();
      await expect(list.search).toHaveValue("inversion");
      await expect(list.rows).toHaveCount(1);
      await list.search.fill("");
      await expect(page).not.toHaveURL(/[?&]q=/);
      await expect(list.rows).toHaveCount(ASSETS.length);

      // Collapse one group: its rows go, the header stays with aria-expanded=false, collIds=[1].
      const toggle = realEstate.getByRole("button", { name: "Contraer Inmuebles" });
      await expect(toggle).toHaveAttribute("aria-expanded", "true");
      await toggle.click();
      await expect(realEstate.getByRole("button", { name: "Expandir Inmuebles" })).toHaveAttribute("aria-expanded", "false");
      await expect(list.rows).toHaveCount(ASSETS.length - 3);
      await expect(list.rows.filter({ hasText: "Piso en Sevilla" })).toHaveCount(0);
      expect(list.collIds()).toEqual([1]);

      // Reload, then open an asset and come Back: still collapsed.
      await page.reload();
      await expect(list.rows).toHaveCount(ASSETS.length - 3);
      await expect(list.group("Inmuebles").getByTestId("group-toggle")).toHaveAttribute("aria-expanded", "false");
      await list.rows.filter({ hasText: "Coche familiar" }).getByRole("link", { name: "Coche familiar", exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/assets/${seeded.ids.get("Coche familiar")}/?\\?tab=details`));
      await page.goBack();
      await expect(list.rows).toHaveCount(ASSETS.length - 3);
      expect(list.collIds()).toEqual([1]);

      // Collapse all, expand all.
      await list.collapseAll.click();
      await expect(list.rows).toHaveCount(0);
      await expect(list.groups).toHaveCount(5);
      await expect(list.collapseAll).toBeDisabled();
      expect(list.collIds()).toEqual([1, 2, 3, 4, 6]);
      await page.reload();
      await expect(list.groups).toHaveCount(5);
      await expect(list.rows).toHaveCount(0);
      await list.expandAll.click();
      await expect(list.rows).toHaveCount(ASSETS.length);
      await expect(list.expandAll).toBeDisabled();
      expect(list.collIds()).toEqual([]);

      // Edit and settings lead to the asset's tabs.
      const car = list.rows.filter({ hasText: "Coche familiar" });
      await expect(car.getByRole("link", { name: "Editar Coche familiar" })).toHaveAttribute("href", new RegExp(`/assets/${seeded.ids.get("Coche familiar")}/?\\?tab=details$`));
      await expect(car.getByRole("link", { name: "Ajustes de Coche familiar" })).toHaveAttribute("href", new RegExp(`/assets/${seeded.ids.get("Coche familiar")}/?\\?tab=settings$`));

    } finally {
      await context.close();
    }
  });

  test("the class and category screens: categories with counts and totals, collapsible, breadcrumbs back", async ({ browser, baseURL }) => {
    const seeded = await seedFromAnotherDevice(baseURL!, await newUser(baseURL!, "class"), ASSETS);
    const context = await contextFor(browser, baseURL!, seeded.account);
    const page = await context.newPage();
    const list = new AssetList(page);
    try {
      await list.open();
      await expect(list.rows).toHaveCount(ASSETS.length);

      // The class screen: its categories with counts and totals, collapsible, breadcrumbs back.
      await list.group("Inmuebles").getByRole("link", { name: "Inmuebles" }).click();
      await expect(page).toHaveURL(/\/assets\/classes\/1\/?$/);
      await expect(page.getByRole("heading", { level: 1, name: "Inmuebles" })).toBeVisible();
      await expect(list.groups.getByRole("heading")).toHaveText(["Residencial", "Comercial", "Industrial", "Categoría personalizada"]);
      await expect(list.group("Residencial").getByTestId("group-count")).toHaveText("2 activos");
      await expect(list.group("Industrial").getByTestId("group-count")).toHaveText("0 activos");
      await expect(list.group("Comercial").getByTestId("group-total")).toHaveText(/180\.000,50\s€/);
      await expect(list.rows).toHaveCount(3);
      await list.group("Residencial").getByRole("button", { name: "Contraer Residencial" }).click();
      await expect(list.rows).toHaveCount(1);
      expect(list.collIds()).toEqual([101]);
      await page.reload();
      await expect(list.rows).toHaveCount(1);
      await expect(list.rows.getByTestId("asset-name")).toHaveText("Local comercial");

      // The category screen: its assets only; breadcrumbs lead back to the class and the list.
      await list.group("Residencial").getByRole("link", { name: "Residencial" }).click();
      await expect(page).toHaveURL(/\/assets\/classes\/1\/category\/101$/);
      await expect(page.getByRole("heading", { level: 1, name: "Residencial" })).toBeVisible();
      expect((await list.names()).sort()).toEqual(["Apartamento en Florida", "Piso en Sevilla"]);
      const crumbs = page.getByRole("navigation", { name: "Ruta de navegación" });
      await expect(crumbs.getByRole("listitem")).toHaveText(["Activos", "Inmuebles", "Residencial"]);
      await crumbs.getByRole("link", { name: "Inmuebles" }).click();
      await expect(page).toHaveURL(/\/assets\/classes\/1\/?$/);
      await page.getByRole("navigation", { name: "Ruta de navegación" }).getByRole("link", { name: "Activos" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Activos" })).toBeVisible();
      await expect(list.rows).toHaveCount(ASSETS.length);

      // The sidebar's "Lista de activos" leads here too.
      await page.goto("/");
      await page.getByRole("navigation", { name: "Navegación principal" }).getByRole("link", { name: "Lista de activos" }).click();
      await expect(list.rows).toHaveCount(ASSETS.length);
    } finally {
      await context.close();
    }
  });

  test("the CSV holds what is shown, in Spanish and in English", async ({ browser, baseURL }) => {
    test.slow();
    const seeded = await seedFromAnotherDevice(baseURL!, await newUser(baseURL!, "csv"), ASSETS);
    const context = await contextFor(browser, baseURL!, seeded.account);
    const page = await context.newPage();
    const list = new AssetList(page);
    try {
      await list.open();
      await expect(list.rows).toHaveCount(ASSETS.length);

      // Spanish: ";" separator, decimal comma, no grouping, translated headers.
      const es = await list.downloadCsv();
      expect(es.name).toMatch(/^activos-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(es.bytes.subarray(3).toString("utf8").split("\r\n")[0]).toBe((await csvHeaders("es")).join(";"));
      const records = await csvRecords(es.bytes, ";", "es");
      expect(records.map((r) => r.name)).toEqual(await list.names());
      const byName = new Map(records.map((r) => [r.name, r]));
      expect(byName.get("Piso en Sevilla")).toMatchObject({
        class: "Inmuebles",
        category: "Residencial",
        currency: "EUR",
        currentValue: "250000",
        participation: "50",
        participationValue: "125000",
        // The country and the province by their names in the reader's language (the province was stored
        // as a name before codes: matched to ES-SE).
        taxCountry: "España",
        taxState: "Sevilla",
        taxCity: "Sevilla",
        // Held (not sold): no disposal date or amount.
        status: "En cartera",
        disposalDate: "",
        disposalAmount: "",
      });
      expect(byName.get("Local comercial")).toMatchObject({ currentValue: "180000,5", participationValue: "180000,5" });
      expect(byName.get("Acciones de Apple")).toMatchObject({ currentValue: "15432,1234", participationValue: "15432,1234", isin: "US0378331005", currency: "USD" });
      expect(byName.get("Cuenta nómina")).toMatchObject({ currentValue: "2500,1", institution: "Openbank" });
      expect(byName.get("Reloj de mi abuelo")).toMatchObject({ currentValue: "", participationValue: "" });

      // What is shown: a search narrows the file to the rows found.
      await list.search.fill("residencial");
      await expect(list.rows).toHaveCount(2);
      const found = await csvRecords((await list.downloadCsv()).bytes, ";", "es");
      expect(found.map((r) => r.name)).toEqual(["Piso en Sevilla", "Apartamento en Florida"]);
      await list.search.fill("");
      await expect(list.rows).toHaveCount(ASSETS.length);

      // English: "," separator, decimal point, English headers and labels.
      await new AppShell(page).chooseLanguage("en");
      await expect(page.getByRole("heading", { level: 1, name: "Assets" })).toBeVisible();
      const en = await list.downloadCsv();
      expect(en.name).toMatch(/^assets-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(en.bytes.subarray(3).toString("utf8").split("\r\n")[0]).toBe((await csvHeaders("en")).join(","));
      const english = await csvRecords(en.bytes, ",", "en");
      expect(english).toHaveLength(ASSETS.length);
      const enByName = new Map(english.map((r) => [r.name, r]));
      expect(enByName.get("Local comercial")).toMatchObject({ class: "Real estate", category: "Commercial", currentValue: "180000.5", participationValue: "180000.5" });
      expect(enByName.get("Acciones de Apple")).toMatchObject({ currentValue: "15432.1234", currency: "USD" });
      expect(enByName.get("Piso en Sevilla")).toMatchObject({ participation: "50", participationValue: "125000" });
    } finally {
      await context.close();
    }
  });

  test("an empty workspace invites to add the first asset; empty and unknown classes and categories", async ({ browser, baseURL }) => {
    const account = await newUser(baseURL!, "empty");
    const context = await contextFor(browser, baseURL!, account);
    const page = await context.newPage();
    try {
      await page.goto("/assets/");
      const empty = page.getByTestId("assets-empty");
      await expect(empty).toContainText("Aún no tienes activos");
      await expect(empty.getByRole("link", { name: "Añadir tu primer activo" })).toHaveAttribute("href", "/assets/new");
      await expect(page.getByRole("link", { name: "Añadir activo" })).toBeVisible();

      // The legal structures tab is there, in the URL.
      await page.getByRole("tab", { name: "Estructuras jurídicas" }).click();
      await expect(page).toHaveURL(/[?&]tab=legal-structures/);
      await expect(page.getByRole("tab", { name: "Estructuras jurídicas", selected: true })).toBeVisible();

      await page.goto("/assets/classes/2/");
      await expect(page.getByRole("heading", { level: 1, name: "Vehículos" })).toBeVisible();
      await expect(page.getByTestId("class-empty")).toContainText("No hay activos en esta clase");

      await page.goto("/assets/classes/2/category/201");
      await expect(page.getByRole("heading", { level: 1, name: "Automóvil" })).toBeVisible();
      await expect(page.getByTestId("category-empty")).toContainText("No hay activos en esta categoría");

      // Unknown ids, and a category of another class: Not Found.
      for (const path of ["/assets/classes/9/", "/assets/classes/abc/", "/assets/classes/1/category/201", "/assets/classes/1/category/150"]) {
        await page.goto(path);
        await expect(page.getByTestId("not-found"), path).toBeVisible();
      }
    } finally {
      await context.close();
    }

    // An admin deactivates every category of commodities (701–703): the class has no category to
    // offer, "No categories available"; reactivated, the categories are back.
    const admin = await adminAccount(baseURL!);
    const commodities = [701, 702, 703];
    const setActive = (active: boolean) =>
      Promise.all(
        commodities.map(async (n) => {
          const res = await fetch(`${baseURL}/api/v1/admin/enums/${n}/${active ? "activate" : "deactivate"}`, {
            method: "POST",
            headers: { Origin: baseURL!, Cookie: `patrimonio_session=${admin.sessionToken}` },
          });
          expect(res.status, `${n} ${active}`).toBeLessThan(300);
        }),
      );
    await setActive(false);
    const later = await contextFor(browser, baseURL!, account);
    try {
      const page = await later.newPage();
      await page.goto("/assets/classes/7/");
      await expect(page.getByRole("heading", { level: 1, name: "Materias primas" })).toBeVisible();
      await expect(page.getByTestId("no-categories")).toContainText("No hay categorías disponibles");
      await expect(page.getByTestId("no-categories")).toContainText("Todas las categorías de Materias primas están desactivadas.");
      await setActive(true);
      await page.reload();
      await expect(page.getByTestId("class-empty")).toContainText("No hay activos en esta clase");
      await expect(page.getByTestId("no-categories")).toHaveCount(0);
    } finally {
      await setActive(true);
      await later.close();
    }
  });

  test("a viewer sees the shared assets read-only", async ({ browser, baseURL }) => {
    const owner = await newUser(baseURL!, "owner");
    const viewer = await newUser(baseURL!, "viewer");
    const { workspace } = (await api(baseURL!, "POST", "/workspaces", owner.sessionToken, { name: "Familia" })) as { workspace: { id: string } };
    await api(baseURL!, "POST", `/workspaces/${workspace.id}/invitations`, owner.sessionToken, { email: viewer.email, role: "viewer" });
    const invitations = (await api(baseURL!, "GET", "/invitations", viewer.sessionToken)) as { id: string }[];
    await api(baseURL!, "POST", `/invitations/${invitations[0]!.id}/accept`, viewer.sessionToken);
    await seedFromAnotherDevice(baseURL!, owner, ASSETS.slice(0, 2), workspace.id);

    const context = await contextFor(browser, baseURL!, viewer, (c) =>
      c.addInitScript((id) => window.localStorage.setItem("patrimonio.activeWorkspace", id), workspace.id),
    );
    const page = await context.newPage();
    const list = new AssetList(page);
    try {
      await list.open();
      await expect(list.rows).toHaveCount(2);
      const add = page.getByTestId("add-asset");
      await expect(add).toBeDisabled();
      await expect(add).toHaveAccessibleDescription(/tu rol en este espacio de trabajo es «lector»/);
      await expect(page.getByTestId("read-only-notice")).toBeVisible();
      // Rows offer to view the asset, not to edit it or open its settings.
      const flat = list.rows.filter({ hasText: "Piso en Sevilla" });
      await expect(flat.getByRole("link", { name: "Ver Piso en Sevilla" })).toBeVisible();
      await expect(flat.getByRole("link", { name: /Editar|Ajustes/ })).toHaveCount(0);
    } finally {
      await context.close();
    }
  });

  test("accessible in light and dark, on a desktop and a phone", async ({ browser, baseURL }) => {
    test.slow();
    const seeded = await seedFromAnotherDevice(baseURL!, await newUser(baseURL!, "a11y"), ASSETS);
    const context = await contextFor(browser, baseURL!, seeded.account);
    const page = await context.newPage();
    try {
      const screens: [string, string][] = [
        ["list", "/assets/"],
        ["list-search", "/assets/?q=yate"],
        ["list-collapsed", "/assets/?collIds=1,3"],
        ["class", "/assets/classes/1/"],
        ["category", "/assets/classes/1/category/101"],
      ];
      for (const [name, path] of screens) {
        await forEachA11yVariant(page, async (variant) => {
          await page.goto(path);
          await expect(page.getByTestId("asset-browser")).toBeVisible();
          await expect(page.getByTestId("route-pending")).toHaveCount(0);
          await expectVariantApplied(page, variant);
          await page.screenshot({ path: test.info().outputPath(`assets-${name}-${variant.theme}-${variant.viewport}.png`) });
          await expectNoSeriousA11yViolations(page, `${name} (${path}) · ${variant.label}`);
          // Every column heading is drawn whole, also on a 320 px phone (not "No…").
          const cut = await page
            .getByTestId("asset-table")
            .getByRole("columnheader")
            .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1 || c.scrollHeight > c.clientHeight + 1).map((c) => c.textContent));
          expect(cut, `${name} · ${variant.label}: column headings cut short`).toEqual([]);
        });
      }
    } finally {
      await context.close();
    }
  });
});
