// The text of a statement file's refusal in the reader's language: its line, the Norma 43 field or
// CSV column it names in words (never the parser's own name for it, "amount", in a Spanish
// sentence), the amounts it computed in the reader's number format ("1.234,5", not "1234.5") and its
// dates in the reader's date format. A refusal of the whole file (line 0) starts with a capital.
import type { i18n as I18n } from "i18next";
import { translateKey } from "../../forms/formCore";
import { formatDate, formatNumber, isDecimalString } from "../../i18n/format";
import { activeLanguage } from "../../i18n/i18n";
import type { ParseError } from "../../import/types";

/** Params that are amounts the parser computed or read (decimal strings). */
const AMOUNT_PARAMS = new Set(["expected", "found", "opening", "closing", "debitTotal", "creditTotal", "foundDebits", "foundCredits"]);
/** Params that are calendar dates (YYYY-MM-DD). */
const DATE_PARAMS = new Set(["asOf", "end", "serialDate"]);

export function statementErrorText(i18n: I18n, e: ParseError): string {
  const t = i18n.t.bind(i18n) as unknown as (key: string, options?: Record<string, unknown>) => string;
  const language = activeLanguage(i18n);
  const params: Record<string, string | number> = { ...e.params };
  for (const [name, value] of Object.entries(params)) {
    if (typeof value !== "string") continue;
    if (name === "field") params[name] = t(`statementImport.n43Fields.${value}`);
    else if (name === "column") params[name] = t(`statementImport.csvColumnNames.${value}`);
    else if (AMOUNT_PARAMS.has(name) && isDecimalString(value)) params[name] = formatNumber(value, language, { minimumFractionDigits: 2, maximumFractionDigits: 20 });
    else if (DATE_PARAMS.has(name) && /^\d{4}-\d{2}-\d{2}$/.test(value)) params[name] = formatDate(value, language);
  }
  const text = translateKey(i18n, { key: e.key, params });
  if (e.line > 0) return t("statementImport.errors.atLine", { line: String(e.line), text });
  return text.charAt(0).toUpperCase() + text.slice(1);
}
