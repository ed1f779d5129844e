// Statement import (issue 15) in real Chromium against the real binary, offline: a bank account is
// made online and the app loaded (the service worker precaches it, the parser's worker included);
// then the context goes offline and stays so: from the asset's page, "Importar extracto", a Norma 43
// file (Latin-1) is read in the worker, previewed (account, balances, recurring movements), imported
// into the asset with one recurring movement kept as a flow; the asset shows the valuations and its
// balance, also after a reload; the same file again imports nothing and says so. Back online, a
// second device of the same user, starting from the server, sees the valuations, the balance and
// the flow. A malformed file is refused whole, naming its line.
import path from "node:path";
import { ImportPage, STATEMENT_FILES } from "./support/import-page";
import { AppShell } from "./support/app-shell";
import { Devices, expect, freshAccount, syncTest as test } from "./support/sync-fixtures";
import { SyncIndicator, SyncTestPage } from "./support/sync-page";

const PENSION = "PENSIÓN JUBILACIÓN INSS ABONO PENSIÓN";

test.describe("statement import", () => {
  test.describe.configure({ timeout: 180_000 });

  test("a Norma 43 file imported offline becomes the asset's valuations and balance, and reaches another device", async ({ devices }) => {
    const a = await devices.open();
    const commands = new SyncTestPage(a.page);
    await commands.open();
    await commands.status.toHaveState("synced");
    const assetId = await commands.create("assets", {
      name: "Cuenta nómina CaixaBank",
      assetClass: "bank_accounts",
      category: "current_account",
      currency: "EUR",
      participation: "100",
      institution: "CaixaBank",
    });

    await a.page.goto(`/assets/${assetId}/`);
    await new AppShell(a.page).serviceWorkerReady();
    const indicator = new SyncIndicator(a.page);
    await indicator.toHaveState("synced");

    await a.context.setOffline(true);
    await indicator.toHaveState("offline");

    // From the asset's page to the import screen, the asset chosen.
    await a.page.getByTestId("import-statement-link").click();
    await expect(a.page).toHaveURL(new RegExp(`/import\\?assetId=${assetId}$`));
    const screen = new ImportPage(a.page);
    await expect(screen.root).toBeVisible();

    // A malformed file: refused whole, naming its line; nothing to import.
    await screen.file.setInputFiles(path.join(STATEMENT_FILES, "norma43-malformed.n43"));
    await expect(screen.error).toHaveText("Línea 8: el campo «importe» no es válido («000O0000000350»).");
    await expect(screen.preview).toHaveCount(0);

    // The golden file: read in the worker, Latin-1 accents intact.
    await screen.choose("norma43-caixa.n43");
    await expect(screen.fact("account")).toHaveText("2100 •••• 1332");
    await expect(screen.fact("institution")).toHaveText("CaixaBank");
    await expect(screen.fact("period")).toHaveText("Del 1 ene 2025 al 31 mar 2025");
    await expect(screen.fact("closing")).toHaveText("15.626,67 € · 31 mar 2025");
    await expect(screen.fact("movements")).toHaveText("11 (0 ya importados)");
    expect(await screen.plans()).toEqual(Array(10).fill("create"));
    await expect(a.page.getByTestId("import-movements")).toContainText("COMPRA TARJ. CAFETERÍA SEÑORÍO");
    await expect(a.page.getByTestId("import-asset")).toHaveValue(assetId);
    await screen.flow(PENSION).click();
    await screen.submit();
    await expect(a.page.getByTestId("import-created")).toHaveText("10 valoraciones nuevas");

    // The asset: its ten statement valuations and its balance, offline.
    await a.page.getByTestId("import-open-asset").click();
    const financial = a.page.getByTestId("section-financial");
    await expect(financial.getByTestId("fact-currentValue").locator("dd")).toHaveText("15.626,67 €");
    await expect(financial.getByTestId("fact-valuationDate").locator("dd")).toHaveText("31 mar 2025");
    await expect(a.page.getByTestId("valuation-row")).toHaveCount(10);
    await expect(a.page.getByText(PENSION)).toBeVisible();
    await expect(indicator.pending).not.toHaveCount(0);

    // A reload while offline: the app from the service worker, the records from the device.
    await a.page.reload();
    await expect(a.page.getByTestId("valuation-row")).toHaveCount(10);
    await expect(financial.getByTestId("fact-currentValue").locator("dd")).toHaveText("15.626,67 €");
    await indicator.toHaveState("offline");

    // The same file again: every balance already there, the flow too; nothing is written.
    await screen.open(assetId);
    await screen.choose("norma43-caixa.n43");
    await expect(screen.fact("movements")).toHaveText("11 (11 ya importados)");
    expect(await screen.plans()).toEqual(Array(10).fill("duplicate"));
    await expect(screen.flow(PENSION)).toBeDisabled();
    await screen.submit();
    await expect(a.page.getByTestId("import-nothing")).toBeVisible();
    await expect(a.page.getByTestId("import-duplicates")).toHaveText("10 saldos ya importados, omitidos");

    // Back online: everything goes to the server; a second device has it.
    await a.context.setOffline(false);
    await indicator.toHaveState("synced");
    await expect(indicator.pending).toHaveCount(0);

    const b = await devices.open();
    await b.page.goto(`/assets/${assetId}/`);
    const financialB = b.page.getByTestId("section-financial");
    await expect(financialB.getByTestId("fact-currentValue").locator("dd")).toHaveText("15.626,67 €");
    await expect(b.page.getByTestId("valuation-row")).toHaveCount(10);
    await expect(b.page.getByText(PENSION)).toBeVisible();
  });

  test("a CSV file: its columns guessed, a new bank account made from it, the mapping kept for the bank", async ({ devices }) => {
    const a = await devices.open();
    const screen = new ImportPage(a.page);
    await screen.open();
    await screen.file.setInputFiles(path.join(STATEMENT_FILES, "csv-bankinter.csv"));
    const mapping = a.page.getByTestId("import-mapping");
    await expect(mapping).toBeVisible();
    // The title line above the header is skipped and each column found by its name.
    await expect(mapping.getByLabel("Filas antes de los datos")).toHaveValue("2");
    await expect(mapping.getByRole("combobox", { name: "Importe", exact: true })).toHaveValue("3");
    await expect(mapping.getByRole("combobox", { name: "Saldo", exact: true })).toHaveValue("4");
    await expect(a.page.getByTestId("import-sample").locator("th").first()).toHaveText("Fecha");
    await mapping.getByLabel("Entidad").fill("Bankinter");
    await mapping.getByLabel("Cuenta (IBAN)").fill("ES05 0128 0010 9101 2345 6789");
    await a.page.getByTestId("import-read-csv").click();

    await expect(screen.preview).toBeVisible();
    await expect(screen.fact("account")).toHaveText("ES05 •••• 6789");
    await expect(screen.fact("closing")).toHaveText("7.480,15 € · 28 mar 2025");
    expect(await screen.plans()).toEqual(Array(5).fill("create"));
    // No bank account yet: a new one, named after the bank and the account.
    await expect(a.page.getByTestId("import-new-name")).toHaveValue("Bankinter 6789");
    await screen.submit();
    await expect(a.page.getByTestId("import-created")).toHaveText("5 valoraciones nuevas");
    await a.page.getByTestId("import-open-asset").click();
    await expect(a.page.getByRole("heading", { level: 1 })).toHaveText("Bankinter 6789");
    await expect(a.page.getByTestId("section-financial").getByTestId("fact-currentValue").locator("dd")).toHaveText("7.480,15 €");
    await expect(a.page.getByTestId("valuation-row")).toHaveCount(5);

    // The next file of the bank: its mapping is filled in; into the account just made, nothing is new.
    await screen.open();
    await screen.file.setInputFiles(path.join(STATEMENT_FILES, "csv-bankinter.csv"));
    await expect(mapping.getByLabel("Entidad")).toHaveValue("Bankinter");
    await expect(mapping.getByLabel("Cuenta (IBAN)")).toHaveValue("ES05 0128 0010 9101 2345 6789");
    await a.page.getByTestId("import-read-csv").click();
    await a.page.getByTestId("import-asset").selectOption({ index: 1 });
    expect(await screen.plans()).toEqual(Array(5).fill("duplicate"));
    await expect(screen.fact("movements")).toHaveText("5 (5 ya importados)");
  });

  test("a viewer of a team workspace cannot import, and is told why", async ({ browser, devices }) => {
    const owner = devices.account;
    const viewer = await freshAccount(devices.baseURL, "import-viewer");
    const api = async (method: string, apiPath: string, token: string, body?: unknown) => {
      const res = await fetch(`${devices.baseURL}/api/v1${apiPath}`, {
        method,
        headers: { Origin: devices.baseURL, Cookie: `patrimonio_session=${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${apiPath}: ${res.status} ${await res.text()}`);
      return res.status === 204 ? undefined : ((await res.json()) as unknown);
    };
    const { workspace } = (await api("POST", "/workspaces", owner.sessionToken, { name: "Familia" })) as { workspace: { id: string } };
    await api("POST", `/workspaces/${workspace.id}/invitations`, owner.sessionToken, { email: viewer.email, role: "viewer" });
    const invitations = (await api("GET", "/invitations", viewer.sessionToken)) as { id: string }[];
    await api("POST", `/invitations/${invitations[0]!.id}/accept`, viewer.sessionToken);

    const viewers = new Devices(browser, devices.baseURL, viewer);
    try {
      const v = await viewers.open();
      await v.context.addInitScript((id: string) => window.localStorage.setItem("patrimonio.activeWorkspace", id), workspace.id);
      const screen = new ImportPage(v.page);
      await screen.open();
      await expect(v.page.getByTestId("import-viewer")).toContainText("tu rol aquí es lector");
      await expect(screen.file).toHaveCount(0);
    } finally {
      await viewers.closeAll();
    }
  });
});
