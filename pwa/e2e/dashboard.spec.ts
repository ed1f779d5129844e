// The dashboard ("/") and the wealth map ("/map") end to end (real server binary, Chromium). The
// workspace is pwa/src/figures/fixture.ts's, whose figures were computed by hand: three currencies
// (EUR, USD with manual rates of the workspace, CLP without any rate), a chain of two structures
// (50 % × 80 %), a co-owned watch without tax registration, a mortgage and a USD loan. Another device
// of the user writes it (bench/dashboard/seed-cli.ts: a @patrimonio/clientdb device in Node over the
// real sync socket); the browser receives it by sync. Checked: the net worth and its parts in Spanish
// and English formats, the missing CLP rate listed and left out (never 1:1), the legal notices,
// the same figures offline after a reload, the map's countries (click and keyboard), the assets
// listed apart, and axe in light and dark at 1280 and 320 wide on both screens. Also: a cash flow
// tied to an asset in its return, the base currency shared by a second device (server), and a
// manual rate typed offline for the missing currency.
import { randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { fixtureInput } from "../src/figures/fixture";
import { createOnboardedAccount, storageStateFor, type ApiAccount } from "./support/accounts";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, test } from "./support/fixtures";
import { seedRecords, type PlannedRecord } from "./support/seed";

const PASSWORD = "lengthy e2e passphrase 4821";

/** The fixture as the records a person would have typed (the schema's fields). */
function fixturePlan(): PlannedRecord[] {
  const input = fixtureInput();
  const plan: PlannedRecord[] = [];
  for (const s of input.structures) {
    plan.push({
      collection: "legalStructures",
      key: s.id,
      fields: { name: s.name, structureType: "holding_company", country: "ES", ownershipPercentage: s.ownershipPercentage, ...(s.parentStructureId ? { parentStructureId: `$ref:${s.parentStructureId}` } : {}) },
    });
  }
  for (const a of input.assets) {
    plan.push({
      collection: "assets",
      key: a.id,
      fields: {
        name: a.name,
        assetClass: a.assetClass,
        category: a.category,
        currency: a.currency,
        participation: a.participation,
        ...(a.participation !== "100" ? { otherOwners: [{ name: "Marta Ruiz", percentage: String(100 - Number(a.participation)) }] } : {}),
        ...(a.legalStructureId ? { legalStructureId: `$ref:${a.legalStructureId}` } : {}),
        currentValue: a.currentValue,
        valuationDate: a.valuationDate,
        ...(a.purchaseValue ? { purchaseValue: a.purchaseValue, purchaseDate: a.purchaseDate } : {}),
        taxLocation: a.noTaxRegistration ? { noTaxRegistration: true } : { country: a.taxCountry },
        ...(a.institution ? { institution: a.institution } : {}),
      },
    });
  }
  for (const v of input.valuations) plan.push({ collection: "valuations", fields: { assetId: `$ref:${v.assetId}`, date: v.date, value: v.value, currency: v.currency, source: "manual" } });
  input.liabilities.forEach((l, i) =>
    plan.push({ collection: "liabilities", fields: { name: l.name, kind: i === 0 ? "mortgage" : "loan", amountOutstanding: l.amountOutstanding, currency: l.currency, ...(l.assetId ? { assetId: `$ref:${l.assetId}` } : {}) } }),
  );
  // A cash flow tied to the flat: 10 000 € received on its last value's day (money taken out: the
  // flat's simple return since the start goes from 20 % to (300 000 − 0 − (250 000 − 10 000)) / 250 000 = 24 %).
  plan.push({
    collection: "cashFlows",
    fields: { name: "Venta de muebles", direction: "inflow", amount: "10000", currency: "EUR", frequency: "once", startDate: "2025-03-01", assetId: `$ref:${input.assets[0]!.id}` },
  });
  // The workspace's own (manual) rates: the test server has no network to fetch the ECB's.
  for (const r of input.rates) plan.push({ collection: "fxRates", fields: { date: r.date, currency: r.currency, perEur: r.perEur, note: "Tipo del BCE" } });
  return plan;
}

function seed(baseURL: string, account: ApiAccount): Promise<void> {
  return seedRecords(baseURL, account, fixturePlan());
}

async function contextFor(browser: Browser, baseURL: string, account: ApiAccount): Promise<BrowserContext> {
  return browser.newContext({ baseURL, storageState: storageStateFor(baseURL, account), locale: "es-ES" });
}

/** The hand-computed figures (fixture.ts), as each language writes them. */
const SHOWN = {
  es: { total: /^238\.796,30\s€$/, assets: /^342\.500,00\s€$/, liabilities: /^103\.703,70\s€$/, clp: /Local en Santiago: 50\.000\.000\sCLP/ },
  en: { total: /^€238,796\.30$/, assets: /^€342,500\.00$/, liabilities: /^€103,703\.70$/, clp: /Local en Santiago: CLP\s50,000,000/ },
};

async function expectFigures(page: Page, lang: "es" | "en"): Promise<void> {
  const s = SHOWN[lang];
  await expect(page.getByTestId("net-worth")).toHaveText(s.total);
  await expect(page.getByTestId("net-worth-assets")).toHaveText(s.assets);
  await expect(page.getByTestId("net-worth-liabilities")).toHaveText(s.liabilities);
  const missing = page.getByTestId("missing-rates");
  await expect(missing.locator("li")).toHaveCount(1);
  await expect(missing).toContainText(s.clp);
  await expect(missing).toContainText("CLP");
}

test.describe("dashboard and wealth map", () => {
  let account: ApiAccount;

  test.beforeAll(async ({ baseURL }) => {
    account = await createOnboardedAccount(baseURL!, `dashboard-${randomBytes(4).toString("hex")}@example.com`, PASSWORD);
    await seed(baseURL!, account);
  });

  test("the net worth and its parts, hand-computed, in Spanish and English, and offline", async ({ browser, baseURL }) => {
    const context = await contextFor(browser, baseURL!, account);
    const page = await context.newPage();
    const shell = new AppShell(page);
    await shell.open("/");
    await expectFigures(page, "es");
    // The CLP amount is left out, never converted 1:1: the total is not 50 million higher.
    await expect(page.getByTestId("net-worth")).toHaveAttribute("data-value", /^238796\.29629629/);
    await expect(page.getByTestId("rate-dates")).toContainText("7 mar 2025");
    const notices = page.getByTestId("legal-notices");
    await expect(notices).toContainText("no constituye asesoramiento financiero");
    await expect(notices).toContainText("7 mar 2025");
    // Distribution by class: the three classes with values (the CLP shop counted as missing).
    const classes = page.getByTestId("slices-class");
    await expect(classes.locator("tbody tr")).toHaveCount(3);
    await expect(classes.locator('tr[data-key="3"]')).toHaveAttribute("data-value", "40000");
    await expect(classes.locator('tr[data-key="1"]')).toContainText("1 sin tipo de cambio");
    // A slice leads to its asset list.
    await expect(classes.locator('tr[data-key="3"] a')).toHaveAttribute("href", /^\/assets\/classes\/3\/?$/);
    // Returns: the USD portfolio's 1 month has the currency effect apart (history computed in the worker).
    await page.getByTestId("period").selectOption("all");
    const assetReturns = page.getByTestId("returns-asset");
    await expect(assetReturns.locator("tr", { hasText: "Local en Santiago" }).locator("td").first()).toHaveText(/^No disponible/);
    // The cash flow tied to the flat counts in its return (simple, since the start: 24 %, not 20 %).
    await expect(assetReturns.locator("tr", { hasText: "Piso Madrid" }).locator("td").nth(3)).toHaveAttribute("data-value", "0.24");

    // The base currency follows the workspace: chosen here in dollars, another device shows dollars.
    await page.getByTestId("base-currency").getByRole("combobox").fill("USD");
    await page.getByRole("option", { name: /USD/ }).first().click();
    await expect(page.getByTestId("net-worth")).toHaveAttribute("data-base", "USD");
    await expect(page.getByTestId("net-worth")).toHaveText(/US\$/);
    const other = await contextFor(browser, baseURL!, account);
    const otherPage = await other.newPage();
    await new AppShell(otherPage).open("/");
    await expect(otherPage.getByTestId("net-worth")).toHaveAttribute("data-base", "USD");
    await otherPage.getByTestId("base-currency").getByRole("combobox").fill("EUR");
    await otherPage.getByRole("option", { name: /EUR/ }).first().click();
    await expect(otherPage.getByTestId("net-worth")).toHaveAttribute("data-base", "EUR");
    await other.close();
    await page.reload();
    await expectFigures(page, "es");

    await shell.chooseLanguage("en");
    await expectFigures(page, "en");
    await expect(notices).toContainText("not financial, tax or legal advice");

    // Offline: the app from the service worker, the records and rates from the device.
    await shell.serviceWorkerReady();
    await context.setOffline(true);
    await page.reload();
    await expectFigures(page, "en");
    await shell.chooseLanguage("es");
    await expectFigures(page, "es");

    // A person on a plane types the missing CLP rate: the shop counts at once (50 000 000 / 1000),
    // shown as typed by hand; deleting it leaves the shop out again.
    await page.getByTestId("add-missing-rate").click();
    await page.getByTestId("manual-rate-value").fill("1000");
    await page.getByTestId("manual-rate-form").getByRole("button", { name: "Añadir tipo" }).click();
    await expect(page.getByTestId("net-worth")).toHaveText(/^288\.796,30\s€$/);
    await expect(page.getByTestId("missing-rates")).toHaveCount(0);
    const typed = page.getByTestId("manual-rates-table").locator('tr[data-currency="CLP"]');
    await expect(typed).toContainText("1 mar 2025");
    await expect(typed).toContainText("Introducido a mano");
    await typed.getByRole("button", { name: /Eliminar el tipo de CLP/ }).click();
    await expectFigures(page, "es");

    // "1.085" typed in Spanish is 1085: far from USD's last known rate (1,08, the fixture's), so
    // the first press warns and adds nothing; the second adds it as typed (dated today).
    const form = page.getByTestId("manual-rate-form");
    const usdRows = page.getByTestId("manual-rates-table").locator('tr[data-currency="USD"]');
    const held = await usdRows.count();
    await form.getByRole("combobox", { name: "Divisa" }).fill("USD");
    await page.getByRole("option", { name: /USD/ }).first().click();
    await page.getByTestId("manual-rate-value").fill("1.085");
    await form.getByRole("button", { name: "Añadir tipo" }).click();
    await expect(form.getByRole("status").filter({ hasText: "Comprueba el tipo" })).toContainText("el último tipo conocido es 1,08");
    await expect(usdRows).toHaveCount(held);
    await form.getByRole("button", { name: "Añadir de todos modos" }).click();
    await expect(usdRows).toHaveCount(held + 1);
    const today = await page.evaluate(() => new Date().toLocaleDateString("sv-SE"));
    const added = usdRows.and(page.locator(`[data-date="${today}"]`));
    await expect(added).toContainText("1.085");
    await added.getByRole("button", { name: /Eliminar el tipo de USD/ }).click();
    await expect(usdRows).toHaveCount(held);
    await expectFigures(page, "es");
    await context.close();
  });

  test("the wealth map shows the right countries, lists their assets, and the ones apart", async ({ browser, baseURL }) => {
    const context = await contextFor(browser, baseURL!, account);
    const page = await context.newPage();
    await new AppShell(page).open("/map");
    const table = page.getByTestId("country-table");
    await expect(table.locator("tbody tr")).toHaveCount(3);
    await expect(table.locator('tr[data-country="ES"]')).toHaveAttribute("data-net", "200000");
    await expect(table.locator('tr[data-country="US"]')).toHaveAttribute("data-net", /^36296\.296296/);
    await expect(table.locator('tr[data-country="CL"]')).toContainText("1 sin tipo de cambio");
    await expect(page.getByTestId("assets-apart")).toContainText("Reloj");
    // Countries with assets are on the map (Spain, the United States, Chile); click one.
    const map = page.getByTestId("world-map");
    await expect(map.locator('path[role="button"]')).toHaveCount(3);
    await map.locator('path[data-country="ES"]').click();
    await expect(page.getByTestId("country-assets")).toContainText("Piso Madrid");
    await expect(page).toHaveURL(/country=ES/);
    // The keyboard: focus the United States and press Enter.
    await map.locator('path[data-country="US"]').focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("country-assets")).toContainText("Cartera USA");
    await expect(page.getByTestId("country-assets")).not.toContainText("Piso Madrid");
    await expect(map.locator('path[data-country="US"]')).toHaveAccessibleName(/Estados Unidos/);
    await context.close();
  });

  test("axe: no serious violations on / and /map, light and dark, 1280 and 320 wide", async ({ browser, baseURL }) => {
    const context = await contextFor(browser, baseURL!, account);
    const page = await context.newPage();
    await forEachA11yVariant(page, async (variant) => {
      await page.goto("/");
      await expect(page.getByTestId("net-worth")).toBeVisible();
      await expect(page.getByTestId("history-table")).toBeVisible();
      await expectVariantApplied(page, variant);
      await expectNoSeriousA11yViolations(page, `dashboard · ${variant.label}`);
      await page.goto("/map?country=ES");
      await expect(page.getByTestId("world-map")).toBeVisible();
      await expectVariantApplied(page, variant);
      await expectNoSeriousA11yViolations(page, `wealth map · ${variant.label}`);
    });
    await context.close();
  });
});
