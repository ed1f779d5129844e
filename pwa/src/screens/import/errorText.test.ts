// A statement file's refusal as the reader reads it: the column or field in words of their
// language, computed amounts and dates in their format, a whole-file refusal capitalised.
import { describe, expect, test } from "vitest";
import { createI18n } from "../../i18n/i18n";
import { statementErrorText } from "./errorText";

const es = createI18n({ lng: "es" });
const en = createI18n({ lng: "en" });

describe("statementErrorText", () => {
  test("a missing CSV column is named in the reader's language", () => {
    const e = { line: 7, key: "statementImport.errors.csvColumns", params: { found: 2, column: "amount", line: 7 } };
    expect(statementErrorText(es, e)).toBe("Línea 7: la fila tiene 2 columnas; la columna de importe no está.");
    expect(statementErrorText(en, e)).toBe("Line 7: the row has 2 columns; the amount column is not in it.");
    expect(statementErrorText(es, { ...e, params: { ...e.params, column: "debit" } })).toContain("la columna de cargos no está");
  });

  test("computed amounts are written the reader's way", () => {
    const e = { line: 12, key: "statementImport.errors.csvBalance", params: { expected: "1234.5", found: "-1200", line: 12 } };
    expect(statementErrorText(es, e)).toBe(
      "Línea 12: tras este movimiento el saldo debería ser 1.234,50, pero el archivo dice -1.200,00. Revisa las columnas de importe y saldo y el separador decimal.",
    );
    expect(statementErrorText(en, e)).toContain("should be 1,234.50 after this movement, but the file says -1,200.00");
  });

  test("a value read from the file is shown as it is", () => {
    const e = { line: 3, key: "statementImport.errors.amount", params: { value: "1234.5", line: 3 } };
    expect(statementErrorText(es, e)).toBe("Línea 3: el importe «1234.5» no es un número.");
  });

  test("dates are written in the reader's date format", () => {
    const e = { line: 40, key: "statementImport.errors.ofxBalanceDate", params: { asOf: "2025-02-03", end: "2025-01-31", line: 40 } };
    expect(statementErrorText(es, e)).toContain("es del 3 feb 2025, pero los movimientos del archivo terminan el 31 ene 2025");
  });

  test("a spreadsheet serial date says the day it would be, in the reader's format, and the format to choose", () => {
    const e = { line: 2, key: "statementImport.errors.dateSerial", params: { value: "45321", serialDate: "2024-01-30", line: 2 } };
    expect(statementErrorText(es, e)).toBe("Línea 2: la fecha «45321» es un número de serie de hoja de cálculo (30 ene 2024): elige el formato de fecha «Número de serie de hoja de cálculo».");
    expect(statementErrorText(en, e)).toBe('Line 2: the date "45321" is a spreadsheet serial number (30 Jan 2024): choose the date format "Spreadsheet serial number".');
  });

  test("a refusal of the whole file starts with a capital", () => {
    expect(statementErrorText(es, { line: 0, key: "statementImport.errors.empty", params: { line: 0 } })).toBe("El archivo no tiene ningún extracto.");
  });
});
