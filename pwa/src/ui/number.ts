// Numbers as people type them, to and from the exact decimal strings the app stores ("1234.56").
// Pure functions: DecimalInput, MoneyInput and PercentInput use them; tests cover them exhaustively.
//
// THE RULE (reading what was typed or pasted, in either language):
// 1. Spaces (also no-break and thin spaces) and apostrophes are grouping and are dropped. A leading
//    "-" (or "−") makes it negative, a leading "+" is allowed. Anything else but digits, "." and ","
//    is an error ("ui.number.invalid"); so is an exponent ("1e5").
// 2. Both "." and "," present: the LAST one is the decimal separator, the other groups thousands
//    ("1.234,56" and "1,234.56" are both 1234.56, whatever the language of the field).
// 3. Only one kind, several times: it groups thousands ("1.234.567" = 1234567).
// 4. Only one kind, once: the reader's decimal separator (es ",", en ".") is the decimal separator.
//    The reader's grouping separator groups thousands only when it reads like a group: 1–3 digits
//    (not a lone 0) before it and exactly 3 after ("1.234" in Spanish = 1234; "1,234" in English =
//    1234); otherwise it is a decimal separator ("1.5" or "0.250" in Spanish = 1.5 and 0.250: a paste
//    from an English source).
// 5. Groups must be well formed: 1–3 digits, then groups of exactly 3 ("1.23.456" is an error).
// 6. The result has no grouping, "." as decimal separator, no leading zeros ("007" = "7"), keeps
//    the decimals as typed ("12,50" = "12.50"), and is never "-0". "" stays "" (empty field).
// 7. Options: maxDecimals (trailing zeros past it are dropped since they change nothing; other
//    extra decimals are an error, never rounded), allowNegative (default false), maxIntegerDigits.
// 8. A money field (option `currency`) also takes that currency's code (any case) or symbol, once,
//    before the number (after its sign, if any) or after it: "1.234,56 €", "€ 1.234,56", "$1,234.56"
//    in a USD field, "1.234,56 US$", what the app itself shows and what a bank's page shows. Another
//    currency's symbol stays an error: "$5" in a euro field is not read as 5 €.
import { formatNumber, type DecimalString } from "../i18n/format";
import type { Language } from "../i18n/i18n";

export type NumberErrorKey =
  | "ui.number.invalid"
  | "ui.number.negative"
  | "ui.number.tooManyDecimals"
  | "ui.number.integerOnly"
  | "ui.number.tooLong";

export interface NumberParseError {
  key: NumberErrorKey;
  /** i18next options of the message (count of decimals allowed). */
  params?: { count: number };
}

export type ParseResult = { ok: true; value: DecimalString | "" } | { ok: false; error: NumberParseError };

export interface ParseOptions {
  /** At most this many decimals; 0 means a whole number. Default: no limit. */
  maxDecimals?: number;
  /** Accept negative numbers. Default false. */
  allowNegative?: boolean;
  /** At most this many digits before the decimal separator. Default: no limit. */
  maxIntegerDigits?: number;
  /** A money field's ISO 4217 code: its code or symbol around the number is accepted (rule 8). */
  currency?: string;
}

/** The separators of a language: es "1.234,56", en "1,234.56". */
export const SEPARATORS: Record<Language, { decimal: "," | "."; group: "," | "." }> = {
  es: { decimal: ",", group: "." },
  en: { decimal: ".", group: "," },
};

const IGNORED = /[\s\u00a0\u202f\u2009'’]/g;
const GROUPED = /^[1-9][0-9]{0,2}(?:x[0-9]{3})+$/;

function fail(key: NumberErrorKey, params?: { count: number }): ParseResult {
  return { ok: false, error: params ? { key, params } : { key } };
}

const currencyMarks = new Map<string, string[]>();

/** How a currency is written next to an amount: its code and its symbols (Intl, both languages,
 * wide and narrow: "€"; "US$" and "$"; "MX$"), without spaces, longest first. */
function marksOf(currency: string): string[] {
  let marks = currencyMarks.get(currency);
  if (!marks) {
    const found = new Set([currency.toUpperCase()]);
    for (const language of ["es", "en"]) {
      for (const currencyDisplay of ["symbol", "narrowSymbol"] as const) {
        try {
          const part = new Intl.NumberFormat(language, { style: "currency", currency, currencyDisplay }).formatToParts(1).find((p) => p.type === "currency");
          if (part) found.add(part.value.replace(IGNORED, ""));
        } catch {
          // Not a currency Intl knows: its code alone.
        }
      }
    }
    marks = [...found].filter((m) => m !== "").sort((a, b) => b.length - a.length);
    currencyMarks.set(currency, marks);
  }
  return marks;
}

/** `s` (spaces already dropped, sign already taken) without one mark of `currency` at its start or
 * end (rule 8). */
function withoutCurrency(s: string, currency: string): string {
  const upper = s.toUpperCase();
  for (const mark of marksOf(currency)) {
    // Codes in any case ("eur"); symbols as they are.
    const m = /^[A-Z]{3}$/.test(mark) ? mark : undefined;
    if (m ? upper.startsWith(m) : s.startsWith(mark)) return s.slice(mark.length);
    if (m ? upper.endsWith(m) : s.endsWith(mark)) return s.slice(0, s.length - mark.length);
  }
  return s;
}

/** Reads a typed or pasted number (see THE RULE above) into a decimal string, or an error key. */
export function parseDecimal(text: string, language: Language, options: ParseOptions = {}): ParseResult {
  const { maxDecimals, allowNegative = false, maxIntegerDigits, currency } = options;
  let s = text.replace(IGNORED, "");
  if (s === "") return { ok: true, value: "" };

  let negative = false;
  if (/^[-−+]/.test(s)) {
    negative = s[0] !== "+";
    s = s.slice(1);
  }
  if (currency) s = withoutCurrency(s, currency);
  if (s === "" || !/^[0-9.,]+$/.test(s)) return fail("ui.number.invalid");

  const dots = s.split(".").length - 1;
  const commas = s.split(",").length - 1;
  let intPart: string;
  let fracPart = "";

  if (dots > 0 && commas > 0) {
    const decimal = s.lastIndexOf(".") > s.lastIndexOf(",") ? "." : ",";
    const group = decimal === "." ? "," : ".";
    if ((decimal === "." ? dots : commas) > 1) return fail("ui.number.invalid");
    const at = s.indexOf(decimal);
    const grouped = s.slice(0, at);
    if (!GROUPED.test(grouped.split(group).join("x"))) return fail("ui.number.invalid");
    intPart = grouped.split(group).join("");
    fracPart = s.slice(at + 1);
  } else if (dots + commas === 0) {
    intPart = s;
  } else {
    const sep = dots > 0 ? "." : ",";
    const count = dots + commas;
    const [before = "", after = ""] = s.split(sep);
    const readsAsGroup = GROUPED.test(`${before}x${after}`);
    if (count > 1) {
      if (!GROUPED.test(s.split(sep).join("x"))) return fail("ui.number.invalid");
      intPart = s.split(sep).join("");
    } else if (sep === SEPARATORS[language].group && readsAsGroup) {
      intPart = before + after;
    } else {
      intPart = before;
      fracPart = after;
    }
  }

  if (intPart === "" && fracPart === "") return fail("ui.number.invalid");
  intPart = intPart.replace(/^0+(?=[0-9])/, "") || "0";

  if (maxDecimals !== undefined && fracPart.length > maxDecimals) {
    const trimmed = fracPart.slice(0, maxDecimals);
    if (/[1-9]/.test(fracPart.slice(maxDecimals))) {
      return maxDecimals === 0 ? fail("ui.number.integerOnly") : fail("ui.number.tooManyDecimals", { count: maxDecimals });
    }
    fracPart = trimmed;
  }
  if (maxIntegerDigits !== undefined && intPart.length > maxIntegerDigits) return fail("ui.number.tooLong");

  const isZero = /^0+$/.test(intPart + fracPart);
  if (negative && !isZero && !allowNegative) return fail("ui.number.negative");
  const sign = negative && !isZero ? "-" : "";
  return { ok: true, value: `${sign}${intPart}${fracPart ? `.${fracPart}` : ""}` };
}

function fractionDigits(value: DecimalString): number {
  const dot = value.indexOf(".");
  return dot < 0 ? 0 : value.length - dot - 1;
}

/**
 * A decimal string as the reader writes it, with grouping, keeping its decimals:
 * ("1234.50", "es") → "1.234,50", ("12345.5", "es") → "12.345,5", ("1234.5", "en") → "1,234.5".
 * Uses the app's formatter (Intl, exact on strings), which groups Spanish from four digits.
 * `minDecimals` pads (money shows 2). "" stays "".
 */
export function formatDecimal(value: DecimalString | "", language: Language, minDecimals = 0): string {
  if (value === "") return "";
  const digits = Math.max(fractionDigits(value), minDecimals);
  return formatNumber(value, language, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A decimal string as text to edit: no grouping, the reader's decimal separator ("1234.5" → "1234,5"). */
export function editableDecimal(value: DecimalString | "", language: Language): string {
  if (value === "") return "";
  return SEPARATORS[language].decimal === "," ? value.replace(".", ",") : value;
}
