// Building blocks every entity uses: bounded text, exact decimal strings, dates, codes, ids.
//
// Every string format here is a `z.stringFormat(name, regex)`: the JSON Schema gets
// `{"type":"string","format":name,"pattern":regex}` and a failure is reported with the message
// key `validation.format.<name>` on both sides (TS and Go). The regexes are written so that
// JavaScript and Go's RE2 read them the same way: ASCII classes only, no lookaround, no `\d`/`\s`.
import * as z from "zod";
import {
  CODE_PATTERN,
  COUNTRY_CODES,
  CURRENCY_CODES,
  DATE_PATTERN,
  EMAIL_PATTERN,
  ENUM_KEY,
  HLC_PATTERN,
  ISIN_PATTERN,
  MONEY_PATTERN,
  MULTIPLE_PATTERN,
  PHONE_PATTERN,
  PRICE_PATTERN,
  QUANTITY_PATTERN,
  RATE_PATTERN,
  INTEREST_RATE_PATTERN,
  REQUIRED_KEY,
  SHARE_PATTERN,
  TEXT_PATTERN,
  URL_PATTERN,
  UUIDV7_PATTERN,
  UUID_PATTERN,
  codePointLength,
  isValidIsin,
} from "./values";

export * from "./values";


// ---------------------------------------------------------------- text

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
export const money = () => format("money", MONEY_PATTERN);
/** Unit price (token price, strike): up to 15 integer digits and 10 decimals. */
export const price = () => format("price", PRICE_PATTERN);
/** Quantity or measure (units, tokens, area): up to 18 integer digits and 18 decimals. */
export const quantity = () => format("quantity", QUANTITY_PATTERN);
/** Ownership share in percent: greater than 0, at most 100, at most two decimals ("12.5"). */
export const share = () => format("share", SHARE_PATTERN);
/** Rate in percent (interest, expected return): signed, |x| < 10000, at most two decimals. */
export const rate = () => format("rate", RATE_PATTERN);
/** A debt's interest rate in percent: signed, |x| < 10000, at most four decimals ("2.875"). */
export const interestRate = () => format("interestRate", INTEREST_RATE_PATTERN);
/** Multiple (expected multiple on invested capital, "2.5"): 0 to 9999.99, at most two decimals. */
export const multiple = () => format("multiple", MULTIPLE_PATTERN);

/** Calendar date YYYY-MM-DD, a real day (leap years included), years 1000 to 2999. */
export const date = () => format("date", DATE_PATTERN);

export const email = () => format("email", EMAIL_PATTERN, 254);
export const phone = () => format("phone", PHONE_PATTERN);
export const url = () => format("httpUrl", URL_PATTERN, 2000);
/** Machine code (enumeration codes and types): letters, digits, `_`, `.`, `-`; at most 64. */
export const code = () => format("code", CODE_PATTERN, 64);

/** Any RFC 9562 UUID (versions 1-8) in canonical lowercase form. */
export const uuid = () => format("uuid", UUID_PATTERN);
/** A UUIDv7 (time-ordered) in canonical lowercase form: every id a client creates. */
export const uuidv7 = () => format("uuidv7", UUIDV7_PATTERN);

/** Hybrid logical clock stamp: `YYYY-MM-DDTHH:MM:SS.sssZ-CCCC-NNNNNNNNNNNNNNNN` (UTC wall time in ms,
 * 4-digit uppercase hex counter, 16-char lowercase hex node id). Stamps compare as strings. */
export const hlc = () => format("hlc", HLC_PATTERN);

// ---------------------------------------------------------------- ISIN

/** ISIN: 2-letter country prefix, 9 alphanumerics, 1 check digit (Luhn over the letters-as-numbers). */

/** ISIN with its check digit verified. A value failing the pattern gets one issue (the pattern's). */
export const isin = () =>
  z.stringFormat("isin", ISIN_PATTERN).check((ctx) => {
    if (ISIN_PATTERN.test(ctx.value) && !isValidIsin(ctx.value)) {
      ctx.issues.push({ code: "invalid_format", format: "isin", input: ctx.value, continue: true });
    }
  });

// ---------------------------------------------------------------- codes from shipped data


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

