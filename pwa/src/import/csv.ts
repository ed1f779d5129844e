// Bank CSV exports with a column mapping: which column holds the date (and its format), the amount
// (one signed column, or a debit and a credit column), the description, the reference and the
// running balance; the decimal separator. The mapping is saved per institution on the device
// (clientdb meta rows), so the next file of that bank is read the same way.
import Papa from "papaparse";
import Decimal from "decimal.js";
import { addDays, canon, isValidDate, isoDate, maskAccount, squash, stripBom, withIds } from "./common";
import { StatementError, guarded, type Movement, type ParseResult, type Progress, type Statement } from "./types";

export const CSV_DATE_FORMATS = ["DD/MM/YYYY", "DD-MM-YYYY", "DD.MM.YYYY", "DD/MM/YY", "YYYY-MM-DD", "MM/DD/YYYY", "SERIAL"] as const;
export type CsvDateFormat = (typeof CSV_DATE_FORMATS)[number];

export interface CsvMapping {
  /** Field delimiter; "" = detect (`;`, `,`, tab). */
  delimiter: string;
  /** Rows before the data: the header (when `header`) and any title lines above it. */
  skipRows: number;
  /** Whether the last skipped row holds the column names. */
  header: boolean;
  dateColumn: number;
  dateFormat: CsvDateFormat;
  valueDateColumn?: number;
  /** One signed amount column, or money out and money in in two columns. */
  amount: { kind: "signed"; column: number } | { kind: "split"; debitColumn: number; creditColumn: number };
  decimalSeparator: "," | ".";
  descriptionColumn: number;
  referenceColumn?: number;
  balanceColumn?: number;
}

export interface CsvOptions {
  mapping: CsvMapping;
  /** What the file is from: the account (IBAN) or, without one, the institution's name. */
  account: string;
  institution?: string;
  currency: string;
}

export interface CsvTable {
  /** Column names (the header row) or "1", "2", … */
  columns: string[];
  /** The first data rows, for the mapping screen. */
  sample: string[][];
  delimiter: string;
}

/** The delimiter when the mapping leaves it to us: the first of ";", tab, "|" found in the first
 * lines, else ",". (Papa's own guess takes the decimal comma of "-95,00;7.480,15" for one.) */
export function guessDelimiter(text: string): string {
  const head = text.split(/\r\n|\n|\r/, 10).join("\n");
  for (const d of [";", "\t", "|"]) if (head.includes(d)) return d;
  return ",";
}

function parseRows(text: string, delimiter: string, onProgress?: Progress, limit?: number): { rows: string[][]; starts: number[]; delimiter: string; badQuotes?: number } {
  const rows: string[][] = [];
  const starts: number[] = [];
  let cursor = 0;
  // The first row whose quotes Papa could not pair: an unclosed quote swallows every row after it
  // into one field, so the file would lose those movements without a word.
  let badQuotes: number | undefined;
  const used = delimiter === "" ? guessDelimiter(text) : delimiter;
  Papa.parse<string[]>(text, {
    delimiter: used,
    skipEmptyLines: false,
    // The mapping screen's sample reads only the first rows (with some to spare for empty ones).
    ...(limit !== undefined ? { preview: limit + 20 } : {}),
    step: (r) => {
      // Splitting the rows is the first half of the work, reading them the second.
      if (onProgress && rows.length % 2000 === 0) onProgress((cursor / text.length) / 2);
      if (badQuotes === undefined && r.errors.some((e) => e.type === "Quotes")) badQuotes = rows.length;
      starts.push(cursor);
      cursor = r.meta.cursor;
      rows.push(r.data);
    },
  });
  return { rows, starts, delimiter: used, ...(badQuotes !== undefined ? { badQuotes } : {}) };
}

/** The 1-based line of each row start, asked in increasing order: each call scans only from the
 * previous offset, so numbering every row of a file is linear in its length (rescanning from the
 * start for each row made a 20,000-row file take minutes). */
export class LineCounter {
  private pos = 0;
  private line = 1;
  /** Characters examined so far: at most the text's length when offsets do not decrease. */
  scanned = 0;
  constructor(private readonly text: string) {}

  at(offset: number): number {
    const text = this.text;
    // An offset behind the last one (never from Papa's cursor) is still answered, from the start.
    if (offset < this.pos) {
      this.pos = 0;
      this.line = 1;
    }
    const end = Math.min(offset, text.length);
    for (let i = this.pos; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) this.line++;
    }
    this.scanned += Math.max(0, end - this.pos);
    this.pos = Math.max(this.pos, end);
    // The row starts after the line end that Papa's cursor stops before.
    const c = text.charCodeAt(offset);
    return c === 13 || c === 10 ? this.line + 1 : this.line;
  }
}

/** The columns and a few rows of a CSV, for choosing the mapping. */
export function csvTable(input: string, mapping: Pick<CsvMapping, "delimiter" | "skipRows" | "header"> & { sampleRows?: number }): CsvTable {
  const text = stripBom(input);
  const { rows, delimiter } = parseRows(text, mapping.delimiter, undefined, mapping.skipRows + (mapping.sampleRows ?? 5));
  const nonEmpty = rows.filter((r) => r.some((c) => c.trim() !== ""));
  const head = mapping.header ? nonEmpty[mapping.skipRows - 1] : undefined;
  const data = nonEmpty.slice(mapping.skipRows, mapping.skipRows + (mapping.sampleRows ?? 5));
  const width = Math.max(head?.length ?? 0, ...data.map((r) => r.length));
  const columns = Array.from({ length: width }, (_, i) => head?.[i]?.trim() || String(i + 1));
  return { columns, sample: data, delimiter };
}

/** "1.234,56", "-12,5", "12,50-", "(7,00)", "1 234,56 €", "EUR -12,00", "−12,00" (a typographic minus,
 * as spreadsheets and some banks write it) → exact decimal with the given separator. */
export function csvAmount(text: string, decimal: "," | "."): string | undefined {
  let t = text
    .replace(/[\s\u00a0\u202f€$£]/g, "")
    .replace(/[\u2212\u2013]/g, "-")
    .replace(/^(EUR|USD|GBP)|(EUR|USD|GBP)$/gi, "");
  if (t === "") return undefined;
  let negative = false;
  if (/^\(.*\)$/.test(t)) {
    negative = true;
    t = t.slice(1, -1);
  }
  if (t.endsWith("-")) {
    negative = !negative;
    t = t.slice(0, -1);
  }
  if (t.startsWith("-")) {
    negative = !negative;
    t = t.slice(1);
  } else if (t.startsWith("+")) t = t.slice(1);
  const group = decimal === "," ? "." : ",";
  if (!new RegExp(`^\\d{1,3}(\\${group}\\d{3})*(\\${decimal}\\d+)?$|^\\d+(\\${decimal}\\d+)?$`).test(t)) return undefined;
  const plain = t.split(group).join("").replace(decimal, ".");
  const v = new Decimal(plain);
  return canon(negative ? v.negated() : v);
}

/** What each format's date must look like (any of "/", "." or "-" between the parts; a time after a
 * space or "T" is ignored). The year has exactly the format's digits: "05/01/2025" read as DD/MM/YY
 * would otherwise be cut to 05/01/20, the 5th of January 2020. */
const DATE_SHAPES: Record<Exclude<CsvDateFormat, "SERIAL">, RegExp> = {
  "DD/MM/YYYY": /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/,
  "DD-MM-YYYY": /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/,
  "DD.MM.YYYY": /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/,
  "DD/MM/YY": /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2})$/,
  "YYYY-MM-DD": /^(\d{4})[/.-](\d{1,2})[/.-](\d{1,2})$/,
  "MM/DD/YYYY": /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/,
};

/** The plausible spreadsheet serial numbers of a statement's dates: 25569 (1 January 1970) to 73050
 * (31 December 2099). A bank date outside them is not a serial but some other number. */
export const SERIAL_MIN = 25569;
export const SERIAL_MAX = 73050;

/** A spreadsheet's date serial number (Excel, LibreOffice, Google Sheets: days since 30 December
 * 1899, so 45321 is 2024-01-30), as a file saved from a spreadsheet writes a date cell it lost the
 * format of; a time of day after the point or comma (45321.5) is ignored. Undefined for anything
 * else, and for numbers outside SERIAL_MIN…SERIAL_MAX. (The 1904 system of old Mac spreadsheets
 * is not told apart: its dates would show four years early in the preview.) */
export function serialDate(text: string): string | undefined {
  const m = /^(\d{5})(?:[.,]\d+)?$/.exec(text.trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  if (n < SERIAL_MIN || n > SERIAL_MAX) return undefined;
  return addDays("1899-12-30", n);
}

export function csvDate(text: string, format: CsvDateFormat): string | undefined {
  if (format === "SERIAL") return serialDate(text);
  const datePart = text.trim().split(/[\sT]/, 1)[0] ?? "";
  const m = DATE_SHAPES[format].exec(datePart);
  if (!m) return undefined;
  const [a, b, c] = [Number(m[1]), Number(m[2]), Number(m[3])];
  let y: number, mo: number, d: number;
  if (format === "YYYY-MM-DD") [y, mo, d] = [a, b, c];
  else if (format === "MM/DD/YYYY") [mo, d, y] = [a, b, c];
  else if (format === "DD/MM/YY") [d, mo, y] = [a, b, c < 80 ? 2000 + c : 1900 + c];
  else [d, mo, y] = [a, b, c];
  return isValidDate(y, mo, d) ? isoDate(y, mo, d) : undefined;
}

/** A date the chosen format does not read. A spreadsheet serial number under a day-month-year
 * format says what it is and which format reads it (with the day it would be), rather than only
 * that it is not valid. */
function badDate(line: number, value: string, format: CsvDateFormat): StatementError {
  const serial = format === "SERIAL" ? undefined : serialDate(value);
  if (serial !== undefined) return new StatementError(line, "statementImport.errors.dateSerial", { value, serialDate: serial });
  return new StatementError(line, format === "SERIAL" ? "statementImport.errors.dateNotSerial" : "statementImport.errors.date", { value });
}

/** Whether each row's balance is the previous row's plus its amount (rows oldest first). */
function balancesFollow(items: readonly { amount: string; balance?: string }[]): boolean {
  for (let i = 1; i < items.length; i++) {
    const prev = items[i - 1]?.balance;
    const cur = items[i];
    if (prev === undefined || cur?.balance === undefined || !new Decimal(prev).plus(cur.amount).equals(cur.balance)) return false;
  }
  return true;
}

/** Reads a CSV with its mapping. A row that does not fit the mapping refuses the file, naming its line. */
export function parseCsv(input: string, options: CsvOptions, onProgress?: Progress): ParseResult {
  return guarded(() => {
    const { mapping } = options;
    const text = stripBom(input);
    const { rows, starts, badQuotes } = parseRows(text, mapping.delimiter, onProgress);
    if (badQuotes !== undefined) throw new StatementError(new LineCounter(text).at(starts[badQuotes] ?? 0), "statementImport.errors.csvQuotes");
    const lines = new LineCounter(text);
    let skipped = 0;
    const items: (Omit<Movement, "id"> & { balance?: string })[] = [];
    for (const [i, row] of rows.entries()) {
      if (onProgress && i % 2000 === 0 && i > 0) onProgress(0.5 + i / rows.length / 2);
      if (row.every((c) => c.trim() === "")) continue;
      if (skipped < mapping.skipRows) {
        skipped++;
        continue;
      }
      const line = lines.at(starts[i] ?? 0);
      const cell = (col: number | undefined): string => (col === undefined ? "" : (row[col] ?? "").trim());
      const need = (col: number, name: string): string => {
        if (col >= row.length) throw new StatementError(line, "statementImport.errors.csvColumns", { found: row.length, column: name });
        return cell(col);
      };
      const rawDate = need(mapping.dateColumn, "date");
      const bookingDate = csvDate(rawDate, mapping.dateFormat);
      if (bookingDate === undefined) throw badDate(line, rawDate, mapping.dateFormat);
      let valueDate: string | undefined;
      if (mapping.valueDateColumn !== undefined && cell(mapping.valueDateColumn) !== "") {
        valueDate = csvDate(cell(mapping.valueDateColumn), mapping.dateFormat);
        if (valueDate === undefined) throw badDate(line, cell(mapping.valueDateColumn), mapping.dateFormat);
      }
      let amount: string | undefined;
      if (mapping.amount.kind === "signed") {
        const raw = need(mapping.amount.column, "amount");
        amount = csvAmount(raw, mapping.decimalSeparator);
        if (amount === undefined) throw new StatementError(line, "statementImport.errors.amount", { value: raw });
      } else {
        const out = need(mapping.amount.debitColumn, "debit");
        const inn = need(mapping.amount.creditColumn, "credit");
        const o = out === "" ? "0" : csvAmount(out, mapping.decimalSeparator);
        const n = inn === "" ? "0" : csvAmount(inn, mapping.decimalSeparator);
        if (o === undefined) throw new StatementError(line, "statementImport.errors.amount", { value: out });
        if (n === undefined) throw new StatementError(line, "statementImport.errors.amount", { value: inn });
        if (out === "" && inn === "") throw new StatementError(line, "statementImport.errors.amount", { value: "" });
        amount = canon(new Decimal(n).minus(new Decimal(o).abs()));
      }
      let balance: string | undefined;
      if (mapping.balanceColumn !== undefined) {
        const raw = need(mapping.balanceColumn, "balance");
        balance = csvAmount(raw, mapping.decimalSeparator);
        if (balance === undefined) throw new StatementError(line, "statementImport.errors.amount", { value: raw });
      }
      const reference = cell(mapping.referenceColumn);
      items.push({
        bookingDate,
        ...(valueDate ? { valueDate } : {}),
        amount,
        description: squash(need(mapping.descriptionColumn, "description")),
        ...(reference ? { reference } : {}),
        line,
        ...(balance !== undefined ? { balance } : {}),
      });
    }
    if (items.length === 0) throw new StatementError(0, "statementImport.errors.empty");
    // Many banks list the newest movement first: read them oldest first.
    const first = items[0] as (typeof items)[number];
    const last = items[items.length - 1] as (typeof items)[number];
    if (first.bookingDate > last.bookingDate) items.reverse();
    else if (first.bookingDate === last.bookingDate && mapping.balanceColumn !== undefined && !balancesFollow(items) && balancesFollow([...items].reverse())) {
      // A file of one day tells its order only by its balances: newest first when they follow on backwards.
      items.reverse();
    }
    let opening: Statement["opening"];
    let closing: Statement["closing"];
    if (mapping.balanceColumn !== undefined) {
      let running: Decimal | undefined;
      for (const it of items) {
        const bal = new Decimal(it.balance as string);
        if (running === undefined) {
          const open = canon(bal.minus(it.amount));
          opening = { date: it.bookingDate, amount: open };
        } else if (!running.plus(it.amount).equals(bal)) {
          throw new StatementError(it.line, "statementImport.errors.csvBalance", { expected: canon(running.plus(it.amount)), found: canon(bal) });
        }
        running = bal;
      }
      const end = items[items.length - 1] as (typeof items)[number];
      closing = { date: end.bookingDate, amount: canon(end.balance as string) };
    }
    const account = options.account.trim() || (options.institution ?? "").trim();
    const movements = items.map(({ balance: _b, ...m }) => m);
    return [
      {
        format: "csv",
        account,
        accountMasked: maskAccount(account),
        ...(options.institution ? { institution: options.institution } : {}),
        currency: options.currency,
        ...(opening ? { opening } : {}),
        ...(closing ? { closing } : {}),
        movements: withIds(account, movements),
      },
    ];
  });
}
