// The plain values behind the schemas (patterns, code lists, keyword names, small helpers), in a
// module without zod: screens and the device database use them on every page, and zod loads only
// with the first validation (issue 8: the dashboard's first download). primitives.ts builds the
// zod schemas from them and re-exports them.
import iso3166 from "../data/iso3166-1.json";
import iso4217 from "../data/iso4217.json";

/** Keyword (JSON Schema annotation and zod metadata) naming the message key used when the value is
 * missing or empty (""), instead of the generic `validation.required`. */
export const REQUIRED_KEY = "x-required-key";
/** Keyword naming the message key used when an enum value is not allowed (instead of `validation.enum`). */
export const ENUM_KEY = "x-key";
/** Keyword marking a field whose value must never be logged (login secrets). */
export const SECRET = "x-secret";

// C0 control characters other than tab, line feed and carriage return, and DEL. Nobody types them,
// and PostgreSQL cannot store U+0000; everything else (accents, emoji, quotes, `<script>`) is data.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const TEXT_PATTERN = /^[^\x00-\x08\x0B\x0C\x0E-\x1F\x7F]*$/;

/** Length in Unicode code points, the way JSON Schema (and Go) count "characters". */
export function codePointLength(value: string): number {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The most whole digits the money, price and quantity formats take (their patterns below). */
export const MONEY_INTEGER_DIGITS = 15;
export const PRICE_INTEGER_DIGITS = 15;
export const QUANTITY_INTEGER_DIGITS = 18;

export const MONEY_PATTERN = /^(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,4})?$/;

export const PRICE_PATTERN = /^(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,10})?$/;

export const QUANTITY_PATTERN = /^(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,18})?$/;

export const SHARE_PATTERN = /^(?:100(?:\.0{1,2})?|[1-9][0-9]?(?:\.[0-9]{1,2})?|0\.(?:[1-9][0-9]?|0[1-9]))$/;

export const RATE_PATTERN = /^-?(?:0|[1-9][0-9]{0,3})(?:\.[0-9]{1,2})?$/;

/** A debt's interest rate: as RATE_PATTERN with up to 4 decimals (Spanish TIN such as 2.875 %). */
export const INTEREST_RATE_PATTERN = /^-?(?:0|[1-9][0-9]{0,3})(?:\.[0-9]{1,4})?$/;

export const MULTIPLE_PATTERN = /^(?:0|[1-9][0-9]{0,3})(?:\.[0-9]{1,2})?$/;

export const DATE_PATTERN =
  /^(?:[12][0-9]{3}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[12][0-9](?:0[48]|[2468][048]|[13579][26])|(?:12|16|20|24|28)00)-02-29)$/;

export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const PHONE_PATTERN = /^[+(]?[0-9][0-9 ()./-]{3,28}[0-9]$/;

// eslint-disable-next-line no-control-regex -- no controls or spaces anywhere in an address
export const URL_PATTERN = /^https?:\/\/[^\x00-\x20/?#][^\x00-\x20]*$/;

export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const UUIDV7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const HLC_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z-[0-9A-F]{4}-[0-9a-f]{16}$/;

export const ISIN_PATTERN = /^[A-Z]{2}[A-Z0-9]{9}[0-9]$/;

export function isValidIsin(value: string): boolean {
  if (!ISIN_PATTERN.test(value)) return false;
  let digits = "";
  for (const ch of value) {
    const c = ch.charCodeAt(0);
    digits += c >= 65 && c <= 90 ? String(c - 55) : ch;
  }
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

export const CURRENCY_CODES: readonly string[] = iso4217.currencies;
export const COUNTRY_CODES: readonly string[] = iso3166.countries;

/** "12.5" -> 1250 (hundredths). Only for strings that passed the share/rate patterns. */
export function toHundredths(value: string): number {
  const negative = value.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? value.slice(1) : value).split(".");
  const n = Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  return negative ? -n : n;
}
