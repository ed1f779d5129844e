// Statement import: parsers per format (pure, run in Node, the browser and a Web Worker), the
// balances and recurring movements an import makes of a statement.
import { parseCamt053 } from "./camt053";
import { parseCsv, type CsvOptions } from "./csv";
import { parseNorma43 } from "./norma43";
import { parseOfx } from "./ofx";
import type { ParseResult, Progress, StatementFormat } from "./types";

export * from "./types";
export { CSV_DATE_FORMATS, csvTable, type CsvDateFormat, type CsvMapping, type CsvOptions, type CsvTable } from "./csv";
export { dailyBalances, descriptionKey, period, recurringMovements, MONTHLY_MAX_DAYS, MONTHLY_MIN_DAYS, type DayBalance, type RecurringMovement } from "./derive";
export { joinStatements, type StatementGroup } from "./combine";
export { decodeStatement, detectFormat } from "./detect";
export { maskAccount } from "./common";

/** Parses a decoded file in the given format (CSV needs its mapping). */
export function parseStatement(text: string, format: StatementFormat, csv?: CsvOptions, onProgress?: Progress): ParseResult {
  switch (format) {
    case "norma43":
      return parseNorma43(text, onProgress);
    case "camt053":
      return parseCamt053(text, onProgress);
    case "ofx":
      return parseOfx(text, onProgress);
    case "csv":
      if (!csv) return { ok: false, error: { line: 0, key: "statementImport.errors.csvMapping", params: { line: 0 } } };
      return parseCsv(text, csv, onProgress);
  }
}
