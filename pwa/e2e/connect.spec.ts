// Bank and broker connections end to end (issue 15), in Chromium against the real binary and the
// fake providers (support/connect.ts). A member links a Spanish bank account: add asset → connect →
// country and institution search → the bank's consent page (the fake approves at once) → back at
// /connect/return → the accounts found, IBAN masked → one becomes an asset with its balance. The
// asset, written by the server as its own sync client, appears on a second browser context (another
// device of the same user), with the bank's balance and the linked-account card. In the same flow
// (the suite is near its time budget) the member links a DEGIRO account through the fake SnapTrade
// portal (which sends back status=SUCCESS&connection_id=…, as SnapTrade's does): the account's asset
// carries its cash, each position arrives as an investment asset of its own on the second device,
// listed on the account's card and linked to it. On the shared server (no provider configured) the
// option says so and links to the statement import.
import type { BrowserContext } from "@playwright/test";
import { createOnboardedAccount, storageStateFor } from "./support/accounts";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { startConnectServer, startFakeProviders, type FakeProviders } from "./support/connect";
import { expect, test, visitorTest } from "./support/fixtures";
import type { RunningServer } from "./support/server";

visitorTest.describe("connections against the fake providers", () => {
  let fake: FakeProviders;
  let server: RunningServer;
  visitorTest.beforeAll(async () => {
    fake = await startFakeProviders();
    server = await startConnectServer(fake);
  });
  visitorTest.afterAll(async () => {
    await server?.stop();
    await fake?.stop();
  });

  visitorTest("link a bank account and a broker account; the assets and positions appear on a second device", async ({ page, context, browser }) => {
    visitorTest.setTimeout(180_000);
    const base = server.url;
    const account = await createOnboardedAccount(base, `connect.${Date.now()}@example.com`, "frase de paso del banco 8812");
    await context.addCookies(storageStateFor(base, account).cookies);

    // Add asset → a bank account category → connect.
    await page.goto(`${base}/assets/new`);
    const picker = page.getByTestId("category-picker");
    await expect(picker).toBeVisible();
    await picker.getByTestId("class-bank_accounts").getByRole("link").first().click();
    await page.getByTestId("method-connect").click();
    await expect(page).toHaveURL(`${base}/connect?kind=bank`);

    // Spain is the default country; search the bank.
    await expect(page.getByTestId("connect-country")).toHaveValue("ES");
    await expect(page.getByTestId("connect-institutions").getByRole("listitem")).toHaveCount(3);
    await expectNoSeriousA11yViolations(page, "connect");
    await page.getByTestId("connect-search").fill("santand");
    const list = page.getByTestId("connect-institutions");
    await expect(list.getByRole("listitem")).toHaveCount(1);
    await list.getByRole("button", { name: "Conectar Banco Santander" }).click();

    // The bank's page approves and sends the browser back; the accounts found are listed, masked.
    await expect(page).toHaveURL(`${base}/connect/return`);
    const accounts = page.getByTestId("connect-account");
    await expect(accounts).toHaveCount(2);
    await expect(page.getByTestId("connect-accounts")).toContainText("ES91 •••• 1332");
    await expect(page.getByTestId("connect-accounts")).not.toContainText("ES9121000418450200051332");
    await expectNoSeriousA11yViolations(page, "connect return");
    // Only the payroll account: untick the dollar one.
    await page.getByRole("checkbox", { name: "Añadir Cuenta Dólares" }).click();
    await page.getByTestId("connect-add").click();
    await expect(page.getByTestId("connect-see-assets")).toBeVisible();

    // The server made the asset; its id, as the workspace's connection says.
    const me = (await (await page.request.get(`${base}/api/v1/me`)).json()) as { workspaces: { id: string }[] };
    const listed = (await (await page.request.get(`${base}/api/v1/workspaces/${me.workspaces[0]!.id}/connections`)).json()) as {
      connections: { accounts: { name: string; assetId: string | null }[] }[];
    };
    const assetId = listed.connections[0]!.accounts.find((a) => a.name === "Cuenta Nómina")?.assetId;
    expect(assetId).toBeTruthy();

    // A brokerage account: add asset → an investment category → connect → the broker (SnapTrade).
    await page.goto(`${base}/assets/new`);
    await picker.getByTestId("class-investments").getByRole("link").first().click();
    await page.getByTestId("method-connect").click();
    await expect(page).toHaveURL(`${base}/connect?kind=brokerage`);
    await page.getByTestId("connect-search").fill("degiro");
    await page.getByTestId("connect-institutions").getByRole("button", { name: "Conectar DEGIRO" }).click();
    await expect(page).toHaveURL(`${base}/connect/return`);
    // The paper-trading account is not offered; the real one becomes an investment.
    await expect(accounts).toHaveCount(1);
    await expect(page.getByTestId("connect-accounts")).toContainText("DEGIRO Cuenta Básica");
    await page.getByTestId("connect-add").click();
    await expect(page.getByTestId("connect-see-assets")).toBeVisible();
    const brokerAccounts = (await (await page.request.get(`${base}/api/v1/workspaces/${me.workspaces[0]!.id}/connections`)).json()) as {
      connections: { provider: string; accounts: { assetId: string | null }[] }[];
    };
    const brokerAssetId = brokerAccounts.connections.find((c) => c.provider === "snaptrade")?.accounts[0]?.assetId;
    expect(brokerAssetId).toBeTruthy();

    // Another device of the same user: the asset arrives through sync, with the bank's balance.
    const other: BrowserContext = await browser.newContext({ storageState: storageStateFor(base, account) });
    const second = await other.newPage();
    await second.goto(`${base}/assets`);
    await expect(second.getByTestId("asset-browser")).toContainText("Cuenta Nómina");
    await second.goto(`${base}/assets/${assetId}/`);
    await expect(second.getByTestId("asset-connection")).toContainText("Banco Santander");
    await expect(second.getByTestId("asset-connection-balance")).toContainText("12.530,55");
    await expect(second.getByTestId("asset-connection")).toContainText("Quedan 3 lecturas hoy");

    // The broker account's asset carries its cash; its positions are assets of their own, listed
    // on its card with units, price and value the Spanish way.
    await second.goto(`${base}/assets/${brokerAssetId}/`);
    const card = second.getByTestId("asset-connection");
    await expect(card).toContainText("DEGIRO");
    await expect(second.getByTestId("asset-connection-balance")).toContainText("1.211,37"); // Spanish groups thousands from four digits on
    const positions = second.getByRole("table", { name: "Posiciones" });
    await expect(positions.getByRole("row")).toHaveCount(3); // the header and two positions
    await expect(second.getByTestId("asset-connection-positions")).toContainText("46.220,00");
    const etf = positions.getByRole("row").filter({ hasText: "IWDA.AS" });
    await expect(etf).toContainText("iShares Core MSCI World UCITS ETF");
    await expect(etf).toContainText("350");
    await expect(etf).toContainText("101,20");
    await expect(etf).toContainText("35.420,00");
    await expectNoSeriousA11yViolations(second, "broker account with positions");
    // The position's own asset, reached from the card, says whose account it belongs to.
    await etf.getByRole("link", { name: "iShares Core MSCI World UCITS ETF" }).click();
    await expect(second.getByTestId("asset-connection-position")).toContainText("DEGIRO Cuenta Básica");
    await expect(second.getByTestId("asset-connection-balance")).toContainText("35.420,00");
    await second.goto(`${base}/assets`);
    await expect(second.getByTestId("asset-browser")).toContainText("Banco Santander SA");
    await other.close();
  });
});

test("without a configured provider the connect option offers the statement import", async ({ page }) => {
  await page.goto("/connect?kind=brokerage");
  const card = page.getByTestId("connect-not-configured");
  await expect(card).toContainText("SnapTrade no está configurado en este servidor");
  await expect(page.getByTestId("connect-import")).toHaveAttribute("href", "/import");
});
