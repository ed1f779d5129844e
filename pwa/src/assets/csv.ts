// CSV of the asset rows shown: translated headers, exact decimals written the reader's way without
// grouping ("1234,56" in Spanish, "1234.56" in English), UTF-8 with a byte-order mark, ";" as the
// separator in Spanish (its decimal separator is ",") and "," in English, CRLF line ends (RFC 4180),
// so the file opens right in a spreadsheet in either language. Quoting by hand (papaparse is not
// installed): a field is quoted when it holds the separator, a quote, CR or LF, or starts or ends
// with a space; quotes inside are doubled. A text starting with = + - @ (a formula for spreadsheets)
// gets a leading apostrophe so opening the file never runs it.
import type { AssetClass } from "@patrimonio/shared-schema";
import { disposalStatusKey, type DisposalLike } from "./disposal";
import { participationValueOf } from "./participation";
import { downloadText } from "../export/download";

export const CSV_BOM = "\uFEFF";

export function csvSeparator(language: string): ";" | "," {
  return language.startsWith("en") ? "," : ";";
}

const FORMULA = /^[=+\-@\t\r]/;

/** One field, quoted when needed. `raw` fields (numbers we wrote) skip the formula guard. */
export function csvField(value: string, separator: string, raw = false): string {
  let v = value;
  if (!raw && FORMULA.test(v)) v = `'${v}`;
  if (v.includes(separator) || v.includes('"') || v.includes("\n") || v.includes("\r") || /^\s|\s$/.test(v)) {
    return `"${v.replace(/"/g, '""')}"`;
  }
  return v;
}

/** A table as CSV text with the BOM: every row joined by the language's separator, CRLF ends. */
export function toCsv(rows: readonly (readonly (string | CsvNumber)[])[], language: string): string {
  const sep = csvSeparator(language);
  const lines = rows.map((row) =>
    row.map((cell) => (typeof cell === "string" ? csvField(cell, sep) : csvField(cell.text, sep, true))).join(sep),
  );
  return CSV_BOM + lines.join("\r\n") + "\r\n";
}

/** A number cell: written as it is (no formula guard; "-5" stays a negative number). */
export interface CsvNumber {
  text: string;
}

/** An exact decimal string the reader's way, no grouping: ("1234.5", "es") → "1234,5". */
export function csvDecimal(value: string | undefined, language: string): CsvNumber {
  if (value === undefined || value === "") return { text: "" };
  return { text: language.startsWith("en") ? value : value.replace(".", ",") };
}

interface CsvAsset {
  fields: {
    name: string;
    assetClass: AssetClass;
    category: string;
    customCategory?: string | undefined;
    currency: string;
    currentValue?: string | undefined;
    participation?: string | undefined;
    valuationDate?: string | undefined;
    institution?: string | undefined;
    isin?: string | undefined;
    taxLocation?: { country?: string | undefined; state?: string | undefined; city?: string | undefined; noTaxRegistration?: boolean | undefined } | undefined;
    legalStructureId?: string | undefined;
    disposal?: DisposalLike | undefined;
  };
}

export interface AssetsCsvOptions {
  language: string;
  t: (key: string) => string;
  classLabel(code: AssetClass): string;
  categoryLabel(code: string, customCategory?: string): string;
  /** The name of a legal structure by id (optional column value). */
  structureName?(id: string): string | undefined;
  /** A country's name in the reader's language (else the ISO code is written). */
  countryName?(code: string): string;
  /** A stored province (a code such as "ES-PM", or a name) in the reader's language (else written as stored). */
  stateName?(country: string | undefined, state: string): string;
}

export const ASSET_CSV_COLUMNS = [
  "name",
  "class",
  "category",
  "currency",
  "currentValue",
  "participation",
  "participationValue",
  "valuationDate",
  "institution",
  "isin",
  "taxCountry",
  "taxState",
  "taxCity",
  "legalStructure",
  "status",
  "disposalDate",
  "disposalAmount",
] as const;

/** The CSV of the given asset rows (in their order): headers "assets.csv.<column>". */
export function assetsCsv(assets: readonly CsvAsset[], options: AssetsCsvOptions): string {
  const { language, t } = options;
  const header = ASSET_CSV_COLUMNS.map((c) => t(`assets.csv.${c}`));
  const rows = assets.map((a) => {
    const f = a.fields;
    return [
      f.name,
      options.classLabel(f.assetClass),
      options.categoryLabel(f.category, f.customCategory),
      f.currency,
      csvDecimal(f.currentValue, language),
      csvDecimal(f.participation, language),
      csvDecimal(participationValueOf(f), language),
      f.valuationDate ?? "",
      f.institution ?? "",
      f.isin ?? "",
      f.taxLocation?.country ? (options.countryName?.(f.taxLocation.country) ?? f.taxLocation.country) : "",
      f.taxLocation?.state ? (options.stateName?.(f.taxLocation.country, f.taxLocation.state) ?? f.taxLocation.state) : "",
      f.taxLocation?.city ?? "",
      (f.legalStructureId && options.structureName?.(f.legalStructureId)) ?? "",
      // Held, or how and when it left, and for how much (in its currency, as the other amounts).
      t(disposalStatusKey(f)),
      f.disposal?.date ?? "",
      csvDecimal(f.disposal?.amount, language),
    ];
  });
  return toCsv([header, ...rows], language);
}

/** "activos-2025-03-10.csv" / "assets-2025-03-10.csv". */
export function assetsCsvFileName(t: (key: string) => string, today: string): string {
  return `${t("assets.csv.fileName")}-${today}.csv`;
}

/** Starts the browser's download of a CSV text (UTF-8; the text carries its BOM). */
export function downloadCsv(fileName: string, text: string): void {
  downloadText(fileName, text, "text/csv");
}
