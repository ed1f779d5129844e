// Golden files per format (pwa/src/import/testdata): each valid sample is read into exactly the
// statement of its <name>.expected.json (movements, balances, end-of-day balances, recurring
// movements); each malformed one is refused whole, naming its line. UPDATE_GOLDEN=1 rewrites the
// expected files (review the diff: they are the specification).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { CsvOptions } from "./csv";
import { dailyBalances, decodeStatement, detectFormat, parseStatement, recurringMovements, type StatementFormat } from "./index";

const dir = join(import.meta.dirname, "testdata");

const BANKINTER_CSV: CsvOptions = {
  account: "ES0501280010910123456789",
  institution: "Bankinter",
  currency: "EUR",
  mapping: {
    delimiter: "",
    skipRows: 2,
    header: true,
    dateColumn: 0,
    dateFormat: "DD/MM/YYYY",
    valueDateColumn: 1,
    amount: { kind: "signed", column: 3 },
    decimalSeparator: ",",
    descriptionColumn: 2,
    referenceColumn: 5,
    balanceColumn: 4,
  },
};

function read(name: string, expected?: StatementFormat) {
  const bytes = new Uint8Array(readFileSync(join(dir, name)));
  const format = detectFormat(bytes, name);
  if (expected) expect(format).toBe(expected);
  return parseStatement(decodeStatement(bytes, format as StatementFormat), format as StatementFormat, format === "csv" ? BANKINTER_CSV : undefined);
}

const VALID: [string, StatementFormat][] = [
  ["norma43-caixa.n43", "norma43"],
  ["camt053-santander.xml", "camt053"],
  ["ofx1-ing.ofx", "ofx"],
  ["ofx2-bbva.ofx", "ofx"],
  ["csv-bankinter.csv", "csv"],
];

describe("golden statements", () => {
  test.each(VALID)("%s is read as its expected statement", (name, format) => {
    const result = read(name, format);
    if (!result.ok) throw new Error(JSON.stringify(result.error));
    const actual = result.statements.map((s) => ({ ...s, dailyBalances: dailyBalances(s), recurring: recurringMovements(s.movements) }));
    const file = join(dir, `${name}.expected.json`);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(file, `${JSON.stringify(actual, null, 2)}\n`);
    expect(actual).toEqual(JSON.parse(readFileSync(file, "utf8")));
  });

  const MALFORMED: [string, StatementFormat, number, string][] = [
    ["norma43-malformed.n43", "norma43", 8, "statementImport.errors.n43Field"],
    ["camt053-malformed.xml", "camt053", 94, "statementImport.errors.amount"],
    ["ofx1-malformed.ofx", "ofx", 63, "statementImport.errors.date"],
    ["csv-malformed.csv", "csv", 4, "statementImport.errors.date"],
  ];
  test.each(MALFORMED)("%s is refused whole, naming its line", (name, format, line, key) => {
    const result = read(name, format);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ line, key, params: { line } });
    expect(result).not.toHaveProperty("statements");
  });
});
