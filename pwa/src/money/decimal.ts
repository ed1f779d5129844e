// The one decimal type of the money code: decimal.js with 40 significant digits and banker's
// rounding (half to even), so sums and conversions are exact to far more digits than any amount
// has. Amounts travel as decimal strings ("1234.56"); nothing here ever holds money in a binary
// float.
import Decimal from "decimal.js";

export const Dec = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_EVEN, toExpNeg: -40, toExpPos: 40 });
export type Dec = InstanceType<typeof Dec>;

const DECIMAL_STRING = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** Parses a plain decimal string ("-12.5"); undefined for anything else (exponents, commas, ""). */
export function parseDecimal(value: string | undefined | null): Dec | undefined {
  if (typeof value !== "string" || !DECIMAL_STRING.test(value)) return undefined;
  return new Dec(value);
}

/** A decimal as a plain string without exponent, trailing zeros removed ("12.5", "-0.0001"). */
export function plain(value: Dec): string {
  const s = value.toFixed();
  return s === "-0" ? "0" : s;
}

/** A decimal rounded to `places` decimals (half to even) as a plain string. */
export function fixed(value: Dec, places: number): string {
  const s = value.toDecimalPlaces(places, Dec.ROUND_HALF_EVEN).toFixed(places);
  return /^-0(?:\.0*)?$/.test(s) ? s.slice(1) : s;
}
