// The CSV column mapping as a form: its zod schema (messages are the shared schema's keys), the
// conversion to and from the reader's mapping (pwa/src/import/csv.ts), and a first guess from the
// column names of a file no mapping was saved for.
import { currency } from "@patrimonio/shared-schema";
import * as z from "zod";
import { formatDate } from "../../i18n/format";
import type { Language } from "../../i18n/i18n";
import { CSV_DATE_FORMATS, csvAmount, csvDate, csvTable, serialDate, type CsvDateFormat, type CsvMapping } from "../../import/csv";

const column = z.string().regex(/^\d+$/);
const optionalColumn = z.union([z.literal(""), column]);

export const csvMappingFormSchema = z
  .strictObject({
    institution: z.string().trim().min(1).max(140),
    account: z.string().trim().max(34),
    currency: currency(),
    delimiter: z.enum(["", ";", ",", "\t", "|"]),
    skipRows: z.string().regex(/^\d{1,2}$/),
    header: z.boolean(),
    dateColumn: column,
    dateFormat: z.enum(CSV_DATE_FORMATS),
    valueDateColumn: optionalColumn,
    amountKind: z.enum(["signed", "split"]),
    amountColumn: optionalColumn,
    debitColumn: optionalColumn,
    creditColumn: optionalColumn,
    decimalSeparator: z.enum([",", "."]),
    descriptionColumn: column,
    referenceColumn: optionalColumn,
    balanceColumn: optionalColumn,
  })
  .superRefine((v, ctx) => {
    const need = (name: "amountColumn" | "debitColumn" | "creditColumn") => {
      if (v[name] === "") ctx.addIssue({ code: "custom", path: [name], params: { key: "validation.required" } });
    };
    if (v.amountKind === "signed") need("amountColumn");
    else {
      need("debitColumn");
      need("creditColumn");
    }
  });

export type CsvMappingForm = z.input<typeof csvMappingFormSchema>;

const num = (s: string) => Number(s);
const opt = (s: string) => (s === "" ? undefined : Number(s));

export function toMapping(v: CsvMappingForm): CsvMapping {
  const valueDate = opt(v.valueDateColumn);
  const reference = opt(v.referenceColumn);
  const balance = opt(v.balanceColumn);
  return {
    delimiter: v.delimiter,
    skipRows: num(v.skipRows),
    header: v.header,
    dateColumn: num(v.dateColumn),
    dateFormat: v.dateFormat,
    ...(valueDate !== undefined ? { valueDateColumn: valueDate } : {}),
    amount: v.amountKind === "signed" ? { kind: "signed", column: num(v.amountColumn) } : { kind: "split", debitColumn: num(v.debitColumn), creditColumn: num(v.creditColumn) },
    decimalSeparator: v.decimalSeparator,
    descriptionColumn: num(v.descriptionColumn),
    ...(reference !== undefined ? { referenceColumn: reference } : {}),
    ...(balance !== undefined ? { balanceColumn: balance } : {}),
  };
}

/** What is saved per institution: the mapping and the account and currency typed with it, and the
 * column names of the file it was made for (when it had a header), to know that file's kind again. */
export interface SavedCsvMapping {
  mapping: CsvMapping;
  account: string;
  currency: string;
  columns?: string[];
}

export function isSavedCsvMapping(value: unknown): value is SavedCsvMapping {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const m = v.mapping as Record<string, unknown> | undefined;
  return typeof v.currency === "string" && typeof v.account === "string" && typeof m === "object" && m !== null && typeof m.dateColumn === "number" && typeof m.amount === "object";
}

export function fromSaved(institution: string, saved: SavedCsvMapping): CsvMappingForm {
  const m = saved.mapping;
  const s = (n: number | undefined) => (n === undefined ? "" : String(n));
  return {
    institution,
    account: saved.account,
    currency: saved.currency,
    delimiter: m.delimiter as CsvMappingForm["delimiter"],
    skipRows: String(m.skipRows),
    header: m.header,
    dateColumn: String(m.dateColumn),
    dateFormat: m.dateFormat,
    valueDateColumn: s(m.valueDateColumn),
    amountKind: m.amount.kind,
    amountColumn: m.amount.kind === "signed" ? String(m.amount.column) : "",
    debitColumn: m.amount.kind === "split" ? String(m.amount.debitColumn) : "",
    creditColumn: m.amount.kind === "split" ? String(m.amount.creditColumn) : "",
    decimalSeparator: m.decimalSeparator,
    descriptionColumn: String(m.descriptionColumn),
    referenceColumn: s(m.referenceColumn),
    balanceColumn: s(m.balanceColumn),
  };
}

const GUESSES: [keyof CsvMappingForm, RegExp][] = [
  ["dateColumn", /^(f\.?\s*)?(fecha|date)(\s*(contable|operaci[oó]n|op\.?|booking))?$|^f\.? ?contable$/i],
  ["valueDateColumn", /valor|value/i],
  ["descriptionColumn", /concepto|descripci[oó]n|description|detalle|memo/i],
  ["amountColumn", /^(importe|amount|cantidad|movimiento)$/i],
  ["debitColumn", /cargo|debe|debit|salida/i],
  ["creditColumn", /abono|haber|credit|entrada/i],
  ["balanceColumn", /saldo|balance|disponible/i],
  ["referenceColumn", /referencia|reference|ref\.?$/i],
];

/** How many of the guesses a row's cells answer: a header row answers several. */
function headerScore(row: readonly string[]): number {
  return GUESSES.filter(([, pattern]) => row.some((c) => pattern.test(c.trim()))).length;
}

/** The header row among the first ten: the first that names at least two known columns (date,
 * amount, description, …); the rows above it are titles. Undefined when none does. */
export function findHeaderRow(rows: readonly (readonly string[])[]): number | undefined {
  const i = rows.slice(0, 10).findIndex((r) => headerScore(r) >= 2);
  return i < 0 ? undefined : i;
}

/** A first mapping for a file of an institution nobody mapped yet: the columns whose names say
 * what they are (Spanish and English bank exports), Spanish number and date formats. */
export function guessMapping(columns: readonly string[], base: CsvMappingForm): CsvMappingForm {
  const out: CsvMappingForm = { ...base };
  const taken = new Set<number>();
  for (const [field, pattern] of GUESSES) {
    const i = columns.findIndex((c, idx) => !taken.has(idx) && pattern.test(c.trim()));
    if (i >= 0) {
      taken.add(i);
      (out as Record<string, unknown>)[field] = String(i);
    }
  }
  if (out.amountColumn === "" && out.debitColumn !== "" && out.creditColumn !== "") out.amountKind = "split";
  return out;
}

/** The date format a file never mapped starts with: spreadsheet serial numbers when every sample
 * value of the date column is one (45321 …: a file saved from a spreadsheet), else `fallback`. */
export function guessDateFormat(sample: readonly (readonly string[])[], dateColumn: number, fallback: CsvDateFormat): CsvDateFormat {
  const values = sample.map((r) => (r[dateColumn] ?? "").trim()).filter((v) => v !== "");
  return values.length > 0 && values.every((v) => serialDate(v) !== undefined) ? "SERIAL" : fallback;
}

/** A cell of the mapping's sample as shown: a spreadsheet serial number in a date column, under that
 * format, with the day it is read as ("45321 → 30 ene 2024"), so the reader sees the dates are right
 * before reading the file; any other cell as it is. */
export function sampleCellText(value: string, column: number, form: Pick<CsvMappingForm, "dateFormat" | "dateColumn" | "valueDateColumn">, language: Language): string {
  if (form.dateFormat !== "SERIAL") return value;
  const dateColumns = [form.dateColumn, form.valueDateColumn].filter((c) => c !== "").map(Number);
  const day = dateColumns.includes(column) ? serialDate(value) : undefined;
  return day === undefined ? value : `${value} → ${formatDate(day, language)}`;
}

export const EMPTY_MAPPING: CsvMappingForm = {
  institution: "",
  account: "",
  currency: "EUR",
  delimiter: "",
  skipRows: "1",
  header: true,
  dateColumn: "0",
  dateFormat: "DD/MM/YYYY",
  valueDateColumn: "",
  amountKind: "signed",
  amountColumn: "",
  debitColumn: "",
  creditColumn: "",
  decimalSeparator: ",",
  descriptionColumn: "1",
  referenceColumn: "",
  balanceColumn: "",
};

/** Whether a saved mapping reads this file: the same column names (when it saved them), and the
 * first data row's date and amount readable with it. */
export function fitsFile(saved: SavedCsvMapping, text: string): boolean {
  const m = saved.mapping;
  const table = csvTable(text, { delimiter: m.delimiter, skipRows: m.skipRows, header: m.header, sampleRows: 1 });
  const norm = (cols: readonly string[]) => cols.map((c) => c.trim().toLowerCase()).join("\u001f");
  if (m.header && saved.columns && norm(saved.columns) !== norm(table.columns)) return false;
  const row = table.sample[0];
  if (!row) return false;
  if (csvDate(row[m.dateColumn] ?? "", m.dateFormat) === undefined) return false;
  const amount = (col: number) => {
    const cell = (row[col] ?? "").trim();
    return cell === "" ? "empty" : csvAmount(cell, m.decimalSeparator) === undefined ? "bad" : "ok";
  };
  if (m.amount.kind === "signed") return amount(m.amount.column) === "ok";
  const out = amount(m.amount.debitColumn);
  const inn = amount(m.amount.creditColumn);
  return out !== "bad" && inn !== "bad" && (out === "ok" || inn === "ok");
}

/** The form a file starts with: the newest saved mapping that reads it (its institution's, most
 * likely), else the guess from its columns. The newest mapping of another bank's export would fill
 * in that bank's name and columns, and saving would replace that bank's mapping. */
export function initialMapping(saved: readonly { institution: string; mapping: unknown }[], text: string, guess: CsvMappingForm): CsvMappingForm {
  for (const row of saved) {
    if (isSavedCsvMapping(row.mapping) && fitsFile(row.mapping, text)) return fromSaved(row.institution, row.mapping);
  }
  return guess;
}
