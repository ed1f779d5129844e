// The CSV mapping form's pure parts: the header row and columns guessed from a bank export, the
// form's rules, and a saved mapping read back into the form unchanged.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { csvTable } from "../../import/csv";
import { decodeStatement } from "../../import/detect";
import { EMPTY_MAPPING, csvMappingFormSchema, findHeaderRow, fromSaved, guessDateFormat, guessMapping, sampleCellText, initialMapping, isSavedCsvMapping, toMapping, type SavedCsvMapping } from "./csvMapping";

const bankinter = decodeStatement(new Uint8Array(readFileSync(join(import.meta.dirname, "..", "..", "import", "testdata", "csv-bankinter.csv"))), "csv");

describe("guessing a bank export's columns", () => {
  test("the header row below a title line, and each column by its Spanish name", () => {
    const rows = csvTable(bankinter, { delimiter: "", skipRows: 0, header: false, sampleRows: 10 }).sample;
    expect(findHeaderRow(rows)).toBe(1);
    const guess = guessMapping(rows[1] ?? [], { ...EMPTY_MAPPING, skipRows: "2" });
    expect(guess).toMatchObject({ skipRows: "2", dateColumn: "0", valueDateColumn: "1", descriptionColumn: "2", amountColumn: "3", balanceColumn: "4", referenceColumn: "5", amountKind: "signed" });
  });

  test("money out and money in columns make a split mapping; English names work too", () => {
    const guess = guessMapping(["Booking date", "Description", "Debit", "Credit", "Balance"], EMPTY_MAPPING);
    expect(guess).toMatchObject({ dateColumn: "0", descriptionColumn: "1", debitColumn: "2", creditColumn: "3", balanceColumn: "4", amountKind: "split" });
  });

  test("a file without a recognisable header has none", () => {
    expect(findHeaderRow([["01/02/2025", "x", "1,00"]])).toBeUndefined();
  });

  test("a date column of spreadsheet serial numbers (a file saved from a spreadsheet) starts as that format; one written date keeps the default", () => {
    const text = "Fecha;Concepto;Importe\n45321;NOMINA;1500\n45322.5;LUZ;-50\n\n45351;AGUA;-20\n";
    const rows = csvTable(text, { delimiter: "", skipRows: 1, header: true, sampleRows: 10 }).sample;
    expect(guessDateFormat(rows, 0, "DD/MM/YYYY")).toBe("SERIAL");
    expect(guessDateFormat(rows, 2, "DD/MM/YYYY")).toBe("DD/MM/YYYY");
    expect(guessDateFormat([...rows, ["29/02/2024", "X", "1"]], 0, "DD/MM/YYYY")).toBe("DD/MM/YYYY");
    expect(guessDateFormat([["12345", "X", "1"]], 0, "DD/MM/YYYY")).toBe("DD/MM/YYYY");
    expect(guessDateFormat([], 0, "YYYY-MM-DD")).toBe("YYYY-MM-DD");
  });

  test("the sample shows a serial date with the day it is read as, in the reader's format; other cells as they are", () => {
    const form = { ...EMPTY_MAPPING, dateFormat: "SERIAL" as const, dateColumn: "0", valueDateColumn: "1" };
    expect(sampleCellText("45321", 0, form, "es")).toBe("45321 → 30 ene 2024");
    expect(sampleCellText("45322", 1, form, "en")).toBe("45322 → 31 Jan 2024");
    expect(sampleCellText("45321", 2, form, "es")).toBe("45321");
    expect(sampleCellText("30/01/2024", 0, form, "es")).toBe("30/01/2024");
    expect(sampleCellText("45321", 0, { ...form, dateFormat: "DD/MM/YYYY" }, "es")).toBe("45321");
  });
});

describe("the form", () => {
  const filled = { ...EMPTY_MAPPING, institution: "Bankinter", amountColumn: "3" };

  test("needs the institution and the amount column(s) of the chosen kind", () => {
    expect(csvMappingFormSchema.safeParse(filled).success).toBe(true);
    const noAmount = csvMappingFormSchema.safeParse({ ...filled, amountColumn: "" });
    expect(noAmount.error?.issues.map((i) => i.path.join("."))).toEqual(["amountColumn"]);
    const split = csvMappingFormSchema.safeParse({ ...filled, amountKind: "split", debitColumn: "2" });
    expect(split.error?.issues.map((i) => i.path.join("."))).toEqual(["creditColumn"]);
    expect(csvMappingFormSchema.safeParse({ ...filled, institution: "  " }).success).toBe(false);
  });

  test("a saved mapping comes back as the same form", () => {
    const form = { ...filled, account: "ES05 0128", valueDateColumn: "1", balanceColumn: "4", referenceColumn: "" };
    const saved = { mapping: toMapping(form), account: form.account, currency: form.currency };
    expect(isSavedCsvMapping(saved)).toBe(true);
    expect(isSavedCsvMapping({ mapping: {} })).toBe(false);
    expect(fromSaved("Bankinter", saved)).toEqual(form);
    expect(saved.mapping).toEqual({
      delimiter: "",
      skipRows: 1,
      header: true,
      dateColumn: 0,
      dateFormat: "DD/MM/YYYY",
      valueDateColumn: 1,
      amount: { kind: "signed", column: 3 },
      decimalSeparator: ",",
      descriptionColumn: 1,
      balanceColumn: 4,
    });
  });
});

describe("the mapping a file starts with", () => {
  const bankinterForm = { ...EMPTY_MAPPING, institution: "Bankinter", skipRows: "2", valueDateColumn: "1", descriptionColumn: "2", amountColumn: "3", balanceColumn: "4", referenceColumn: "5" };
  const bankinterSaved: SavedCsvMapping = {
    mapping: toMapping(bankinterForm),
    account: "",
    currency: "EUR",
    columns: ["Fecha", "Fecha valor", "Concepto", "Importe", "Saldo", "Referencia"],
  };
  // Another bank's export: a header on the first line, money out and in apart, ISO dates.
  const other = "F. Operacion,Descripcion,Cargo,Abono,Disponible\n2025-03-28,Compra supermercado,\"12,40\",,\"980,10\"\n";
  const otherGuess = guessMapping(["F. Operacion", "Descripcion", "Cargo", "Abono", "Disponible"], EMPTY_MAPPING);
  const otherForm = { ...otherGuess, institution: "Otro Banco", delimiter: "," as const, dateFormat: "YYYY-MM-DD" as const };
  const otherSaved: SavedCsvMapping = { mapping: toMapping(otherForm), account: "", currency: "EUR", columns: ["F. Operacion", "Descripcion", "Cargo", "Abono", "Disponible"] };
  // Newest first, as the device lists them.
  const saved = [
    { institution: "Otro Banco", mapping: otherSaved },
    { institution: "Bankinter", mapping: bankinterSaved },
  ];

  test("a bank's file gets that bank's saved mapping, not the newest one of another bank", () => {
    expect(initialMapping(saved, bankinter, EMPTY_MAPPING)).toEqual(fromSaved("Bankinter", bankinterSaved));
    expect(initialMapping(saved, other, EMPTY_MAPPING)).toEqual(fromSaved("Otro Banco", otherSaved));
  });

  test("a file no saved mapping reads gets the guess from its columns", () => {
    expect(initialMapping([{ institution: "Bankinter", mapping: bankinterSaved }], other, otherGuess)).toEqual(otherGuess);
    // A mapping saved before column names were kept is still tried: by its first row's date and amount.
    const { columns: _c, ...old } = bankinterSaved;
    expect(initialMapping([{ institution: "Bankinter", mapping: old }], other, otherGuess)).toEqual(otherGuess);
    expect(initialMapping([{ institution: "Bankinter", mapping: old }], bankinter, otherGuess)).toEqual(fromSaved("Bankinter", old));
  });
});
