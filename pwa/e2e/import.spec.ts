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
import { expect, syncTest as test } from "./support/sync-fixtures";
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
});
