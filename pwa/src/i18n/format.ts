// Display formatting for numbers, percentages, money and dates in the active language.
//
// Locales: Spanish texts format as es-ES (the app locale), grouping from four digits (withGrouping). English texts format as en-GB, not en-US:
// Patrimonio's users live in a European, euro-first context, and day-month-year dates read the same
// way in both languages (10/03/2025 is 10 March in either), where en-US would silently flip them.
//
// Money and other exact amounts are decimal strings ("1234.50"). They are handed to Intl as strings,
// which formats them exactly (ECMA-402 treats a string as a decimal, not a binary float), so a display
// never rounds through a double. Sums and conversions belong elsewhere, never here.
import type { Language } from "./i18n";

export const INTL_LOCALES: Record<Language, string> = { es: "es-ES", en: "en-GB" };

/** An exact decimal written with a dot and no exponent or grouping: "-12", "0.5", "1234.5600". */
export type DecimalString = string;

const DECIMAL = /^[+-]?\d+(\.\d+)?$/;
const CURRENCY = /^[A-Z]{3}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

export function isDecimalString(value: string): boolean {
  return DECIMAL.test(value);
}

function assertDecimal(value: string): void {
  if (!DECIMAL.test(value)) {
    throw new RangeError(`not a decimal string: ${JSON.stringify(value)}`);
  }
}

type IntlNumber = Parameters<Intl.NumberFormat["format"]>[0];

function asIntlNumber(value: number | DecimalString): IntlNumber {
  if (typeof value === "number") return value;
  assertDecimal(value);
  return value as IntlNumber;
}

/**
 * Spanish groups every number of four or more digits ("1.234,56"), the way the team's standard
 * writes it; CLDR's es-ES leaves four digits ungrouped ("1234,56"), so "always" is asked for unless
 * the caller chose a grouping. English (en-GB) groups from four digits already ("1,234.56").
 * Years, postcodes and ids are not numbers to format: never pass them here.
 */
function withGrouping(language: Language, options: Intl.NumberFormatOptions): Intl.NumberFormatOptions {
  return language === "es" && options.useGrouping === undefined ? { ...options, useGrouping: "always" } : options;
}

/** Formats a number or decimal string with grouping and the locale's decimal separator. */
export function formatNumber(
  value: number | DecimalString,
  language: Language,
  options: Intl.NumberFormatOptions = {},
): string {
  return new Intl.NumberFormat(INTL_LOCALES[language], withGrouping(language, options)).format(asIntlNumber(value));
}

/**
 * Moves the decimal point of a decimal string `places` positions to the left, exactly
 * ("12.5", 2 → "0.125"). Used to turn percentage points into the fraction Intl expects.
 */
export function shiftDecimalLeft(value: DecimalString, places: number): DecimalString {
  assertDecimal(value);
  const sign = value.startsWith("-") ? "-" : "";
  const unsigned = value.replace(/^[+-]/, "");
  const [intPart = "0", fracPart = ""] = unsigned.split(".");
  const padded = intPart.padStart(places + 1, "0");
  const cut = padded.length - places;
  const fraction = padded.slice(cut) + fracPart;
  return `${sign}${padded.slice(0, cut)}${fraction ? `.${fraction}` : ""}`;
}

/**
 * Formats percentage points: 25 or "25" → "25 %" (es) / "25%" (en).
 * At most two fraction digits unless options say otherwise.
 */
export function formatPercent(
  points: number | DecimalString,
  language: Language,
  options: Intl.NumberFormatOptions = {},
): string {
  const fraction = typeof points === "number" ? points / 100 : shiftDecimalLeft(points, 2);
  return formatNumber(fraction, language, { style: "percent", maximumFractionDigits: 2, ...options });
}

/**
 * Formats an exact amount in an ISO 4217 currency: ("1234.5", "EUR", "es") → "1.234,50 €".
 * The currency's own minor units apply (2 for EUR and USD, 0 for JPY); extra digits are rounded
 * half away from zero, on the decimal digits themselves.
 */
export function formatMoney(
  amount: DecimalString,
  currency: string,
  language: Language,
  options: Pick<Intl.NumberFormatOptions, "currencyDisplay" | "signDisplay" | "maximumFractionDigits" | "minimumFractionDigits"> = {},
): string {
  if (!CURRENCY.test(currency)) {
    throw new RangeError(`not an ISO 4217 currency code: ${JSON.stringify(currency)}`);
  }
  return formatNumber(amount, language, { style: "currency", currency, ...options });
}

/**
 * Formats a date. A date-only string ("2025-03-10", how the app stores calendar dates) is shown as
 * that calendar day whatever the device's time zone; a Date or full ISO timestamp uses the
 * device's time zone unless options.timeZone says otherwise.
 */
export function formatDate(
  value: Date | string,
  language: Language,
  options: Intl.DateTimeFormatOptions = { dateStyle: "medium" },
): string {
  let date: Date;
  let opts = options;
  if (typeof value === "string" && DATE_ONLY.test(value)) {
    date = new Date(`${value}T00:00:00Z`);
    opts = { ...options, timeZone: "UTC" };
  } else {
    date = typeof value === "string" ? new Date(value) : value;
  }
  if (Number.isNaN(date.getTime())) {
    throw new RangeError(`not a date: ${JSON.stringify(value)}`);
  }
  return new Intl.DateTimeFormat(INTL_LOCALES[language], opts).format(date);
}
