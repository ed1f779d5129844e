// Building blocks every entity uses: bounded text, exact decimal strings, dates, codes, ids.
//
// Every string format here is a `z.stringFormat(name, regex)`: the JSON Schema gets
// `{"type":"string","format":name,"pattern":regex}` and a failure is reported with the message
// key `validation.format.<name>` on both sides (TS and Go). The regexes are written so that
// JavaScript and Go's RE2 read them the same way: ASCII classes only, no lookaround, no `\d`/`\s`.
import * as z from "zod";
import iso3166 from "../data/iso3166-1.json";
import iso4217 from "../data/iso4217.json";

/** Keyword (JSON Schema annotation and zod metadata) naming the message key used when the value is
 * missing or empty (""), instead of the generic `validation.required`. */
export const REQUIRED_KEY = "x-required-key";
/** Keyword naming the message key used when an enum value is not allowed (instead of `validation.enum`). */
export const ENUM_KEY = "x-key";
/** Keyword marking a field whose value must never be logged (login secrets). */
export const SECRET = "x-secret";

// ---------------------------------------------------------------- text

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

export interface TextOptions {
  /** At most this many characters (code points). Every free-text field has one. */
  max: number;
  /** At least this many characters; 1 means "required, empty not allowed". Default 0. */
  min?: number;
  /** Message key shown when the value is missing or empty. */
  requiredKey?: string;
}

/** Length check in code points; `max` also goes into the JSON Schema as maxLength. Empty (or, with
 * min 1, too short) reports `requiredKey`; 1 to min-1 characters report validation.string.min. */
export function lengthCheck<T extends z.ZodType<string>>(schema: T, min: number, max: number, requiredKey?: string): T {
  return schema
    .check((ctx) => {
      const n = codePointLength(ctx.value);
      if (n < min) {
        ctx.issues.push({
          code: "too_small",
          origin: "string",
          minimum: min,
          inclusive: true,
          input: ctx.value,
          continue: true,
          ...(requiredKey ? { [REQUIRED_KEY]: requiredKey } : {}),
        });
      }
      if (n > max) {
        ctx.issues.push({ code: "too_big", origin: "string", maximum: max, inclusive: true, input: ctx.value, continue: true });
      }
    })
    .meta({
      ...(min > 0 ? { minLength: min } : {}),
      maxLength: max,
      ...(requiredKey ? { [REQUIRED_KEY]: requiredKey } : {}),
    }) as T;
}

/** Free text: any Unicode except control characters, length counted in code points. */
export function text(options: TextOptions) {
  return lengthCheck(z.stringFormat("text", TEXT_PATTERN), options.min ?? 0, options.max, options.requiredKey);
}

// ---------------------------------------------------------------- formatted strings

function format(name: string, pattern: RegExp, maxLength?: number) {
  const schema = z.stringFormat(name, pattern);
  return maxLength === undefined ? schema : lengthCheck(schema, 0, maxLength);
}

/** Money amount: exact, non-negative decimal string, up to 15 integer digits and 4 decimals. */
export const MONEY_PATTERN = /^(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,4})?$/;
export const money = () => format("money", MONEY_PATTERN);
/** Unit price (token price, strike): up to 15 integer digits and 10 decimals. */
export const PRICE_PATTERN = /^(?:0|[1-9][0-9]{0,14})(?:\.[0-9]{1,10})?$/;
export const price = () => format("price", PRICE_PATTERN);
/** Quantity or measure (units, tokens, area): up to 18 integer digits and 18 decimals. */
export const QUANTITY_PATTERN = /^(?:0|[1-9][0-9]{0,17})(?:\.[0-9]{1,18})?$/;
export const quantity = () => format("quantity", QUANTITY_PATTERN);
/** Ownership share in percent: greater than 0, at most 100, at most two decimals ("12.5"). */
export const SHARE_PATTERN = /^(?:100(?:\.0{1,2})?|[1-9][0-9]?(?:\.[0-9]{1,2})?|0\.(?:[1-9][0-9]?|0[1-9]))$/;
export const share = () => format("share", SHARE_PATTERN);
/** Rate in percent (interest, expected return): signed, |x| < 10000, at most two decimals. */
export const RATE_PATTERN = /^-?(?:0|[1-9][0-9]{0,3})(?:\.[0-9]{1,2})?$/;
export const rate = () => format("rate", RATE_PATTERN);
/** Multiple (expected multiple on invested capital, "2.5"): 0 to 9999.99, at most two decimals. */
export const MULTIPLE_PATTERN = /^(?:0|[1-9][0-9]{0,3})(?:\.[0-9]{1,2})?$/;
export const multiple = () => format("multiple", MULTIPLE_PATTERN);

/** Calendar date YYYY-MM-DD, a real day (leap years included), years 1000 to 2999. */
export const DATE_PATTERN =
  /^(?:[12][0-9]{3}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))|(?:[12][0-9](?:0[48]|[2468][048]|[13579][26])|(?:12|16|20|24|28)00)-02-29)$/;
export const date = () => format("date", DATE_PATTERN);

export const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
export const email = () => format("email", EMAIL_PATTERN, 254);
export const PHONE_PATTERN = /^[+(]?[0-9][0-9 ()./-]{3,28}[0-9]$/;
export const phone = () => format("phone", PHONE_PATTERN);
// eslint-disable-next-line no-control-regex -- no controls or spaces anywhere in an address
export const URL_PATTERN = /^https?:\/\/[^\x00-\x20/?#][^\x00-\x20]*$/;
export const url = () => format("httpUrl", URL_PATTERN, 2000);
/** Machine code (enumeration codes and types): letters, digits, `_`, `.`, `-`; at most 64. */
export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
export const code = () => format("code", CODE_PATTERN, 64);

/** Any RFC 9562 UUID (versions 1-8) in canonical lowercase form. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const uuid = () => format("uuid", UUID_PATTERN);
/** A UUIDv7 (time-ordered) in canonical lowercase form: every id a client creates. */
export const UUIDV7_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const uuidv7 = () => format("uuidv7", UUIDV7_PATTERN);

/** Hybrid logical clock stamp: `YYYY-MM-DDTHH:MM:SS.sssZ-CCCC-NNNNNNNNNNNNNNNN` (UTC wall time in ms,
 * 4-digit uppercase hex counter, 16-char lowercase hex node id). Stamps compare as strings. */
export const HLC_PATTERN = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}Z-[0-9A-F]{4}-[0-9a-f]{16}$/;
export const hlc = () => format("hlc", HLC_PATTERN);

// ---------------------------------------------------------------- ISIN

/** ISIN: 2-letter country prefix, 9 alphanumerics, 1 check digit (Luhn over the letters-as-numbers). */
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

/** ISIN with its check digit verified. A value failing the pattern gets one issue (the pattern's). */
export const isin = () =>
  z.stringFormat("isin", ISIN_PATTERN).check((ctx) => {
    if (ISIN_PATTERN.test(ctx.value) && !isValidIsin(ctx.value)) {
      ctx.issues.push({ code: "invalid_format", format: "isin", input: ctx.value, continue: true });
    }
  });

// ---------------------------------------------------------------- codes from shipped data

export const CURRENCY_CODES: readonly string[] = iso4217.currencies;
export const COUNTRY_CODES: readonly string[] = iso3166.countries;

/** ISO 4217 currency code (list shipped in data/iso4217.json). */
export const currency = () => z.enum(CURRENCY_CODES).meta({ [ENUM_KEY]: "validation.format.currency" });
/** ISO 3166-1 alpha-2 country code (list shipped in data/iso3166-1.json). */
export const country = () => z.enum(COUNTRY_CODES).meta({ [ENUM_KEY]: "validation.format.country" });

// ---------------------------------------------------------------- numbers

/** Integer within [min, max] (bounds are part of the schema; no unbounded numbers anywhere). */
export const int = (min: number, max: number) => z.int().min(min).max(max);

/** Object or record holding at most `max` keys (JSON Schema `maxProperties`). */
export function maxKeys<T extends z.ZodType>(schema: T, max: number): T {
  return schema
    .check((ctx) => {
      const value = ctx.value;
      if (value && typeof value === "object" && Object.keys(value).length > max) {
        ctx.issues.push({ code: "too_big", origin: "object", maximum: max, inclusive: true, input: value, continue: true });
      }
    })
    .meta({ maxProperties: max }) as T;
}

/** Attach a description (shown in the JSON Schema and in the generated field reference). */
export function doc<T extends z.ZodType>(schema: T, description: string): T {
  return schema.meta({ description }) as T;
}

// ---------------------------------------------------------------- exact decimal helpers

/** "12.5" -> 1250 (hundredths). Only for strings that passed the share/rate patterns. */
export function toHundredths(value: string): number {
  const negative = value.startsWith("-");
  const [whole = "0", fraction = ""] = (negative ? value.slice(1) : value).split(".");
  const n = Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
  return negative ? -n : n;
}
