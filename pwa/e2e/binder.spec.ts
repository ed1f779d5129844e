// The executor's binder (issue 13): one printable document in the reader's language. Chromium prints
// it to PDF (page.pdf(), print media: the print stylesheet) and pdftotext reads the text back: the
// assets with where they are and at which institution, the debts, the beneficiaries and their
// allocations, the instructions, and how to open the logins vault; in Spanish, then in English. The
// print button calls window.print(). Axe in light and dark, desktop and phone.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { AppShell } from "./support/app-shell";
import { expectNoSeriousA11yViolations, expectVariantApplied, forEachA11yVariant } from "./support/axe";
import { expect, syncTest as test } from "./support/sync-fixtures";
import { SyncTestPage } from "./support/sync-page";

const run = promisify(execFile);

/** Prints the page to PDF as Chromium does for paper and returns the PDF's text (pdftotext -raw, whitespace collapsed). */
async function printedText(page: Page, path: string): Promise<string> {
  await writeFile(path, await page.pdf({ format: "A4", printBackground: false }));
  const { stdout } = await run("pdftotext", ["-raw", "-enc", "UTF-8", path, "-"]);
  return stdout.replace(/\s+/g, " ");
}

test("the executor's binder prints to PDF with everything an executor needs, in the reader's language", async ({ devices }, testInfo) => {
  test.setTimeout(90_000);
  const a = await devices.open();
  const commands = new SyncTestPage(a.page);
  await commands.open();
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
  await commands.create("liabilities", { name: "Hipoteca del piso", kind: "mortgage", creditorName: "Banco Sabadell", amountOutstanding: "120000", currency: "EUR", assetId: flat });
  const ana = await commands.create("beneficiaries", {
    name: "Ana Ruiz",
    relationship: "child",
    email: "ana@example.com",
    allocations: [{ assetId: flat, percentage: "100" }, { assetId: account, percentage: "50" }, { percentage: "25" }],
  });
  await commands.create("legacyInstructions", { text: "Llamad primero a la notaría de Vigo.", priority: "high" });
  await commands.create("legacyInstructions", { text: "Que Ana decida si se vende el piso.", assetId: flat, beneficiaryId: ana });

  const page = a.page;
  await page.goto("/beneficiaries");
  await page.getByTestId("open-binder").click();
  await expect(page).toHaveURL(/\/beneficiaries\/binder$/);
  await expect(page.getByTestId("binder-asset")).toHaveCount(2);

  // The print button opens the browser's print dialog.
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void (window as unknown as { printed: number }).printed++;
  });
  await page.getByTestId("binder-print").click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);

  const es = await printedText(page, testInfo.outputPath("binder-es.pdf"));
  for (const expected of [
    "Carpeta del albacea",
    "Activos (2)",
    "Piso en Vigo",
    "Vigo, Pontevedra, España",
    "300.000,00 €",
    "Cuenta Abanca",
    "Abanca",
    "Deudas (1)",
    "Hipoteca del piso",
    "Banco Sabadell",
    "120.000,00 €",
    "Beneficiarios y asignaciones (1)",
    "Ana Ruiz (Hijo/a)",
    "Contacto: ana@example.com",
    "Piso en Vigo, 100 %",
    "Cuenta Abanca, 50 %",
    "Patrimonio completo, 25 %",
    "Instrucciones (2)",
    "Prioridad: Alta: Llamad primero a la notaría de Vigo.",
    "Sobre Piso en Vigo",
    "Que Ana decida si se vende el piso.",
    // Who the instruction about the flat is for (as the Instructions tab's badge says).
    "Para Ana Ruiz",
    "Baúl de accesos",
    "Para abrirlo: abre Accesos en la aplicación e introduce la frase de paso del baúl.",
  ]) {
    expect(es, expected).toContain(expected);
  }
  // Only the document is printed: not the sidebar, the top bar or the print button.
  expect(es).not.toContain("Tu patrimonio");
  expect(es).not.toContain("Imprimir o guardar en PDF");

  // In English, the reader's language: the same document in English words and numbers.
  await new AppShell(page).chooseLanguage("en");
  await expect(page.getByRole("heading", { level: 1, name: "Executor's binder" })).toBeVisible();
  const en = await printedText(page, testInfo.outputPath("binder-en.pdf"));
  for (const expected of [
    "Executor's binder",
    "Assets (2)",
    "Vigo, Pontevedra, Spain",
    "€300,000.00",
    "Debts (1)",
    "Beneficiaries and allocations (1)",
    "Ana Ruiz (Child)",
    "Whole estate: 25%",
    "Priority: High: Llamad primero a la notaría de Vigo.",
    "For Ana Ruiz",
    "To open it: open Logins in the app and enter the vault passphrase.",
  ]) {
    expect(en, expected).toContain(expected);
  }
  expect(en).not.toContain("Carpeta del albacea");
  await new AppShell(page).chooseLanguage("es");

  await forEachA11yVariant(page, async (variant) => {
    await page.goto("/beneficiaries/binder");
    await expect(page.getByTestId("binder")).toBeVisible();
    await expectVariantApplied(page, variant);
    await expectNoSeriousA11yViolations(page, `binder · ${variant.label}`);
  });
});
