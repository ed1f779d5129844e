// Converting an amount between currencies on a date: with the rate on or before that date,
// through EUR when neither side is EUR (every rate is per EUR), saying which rate dates were used.
// A missing rate is "missing", never 1:1.
import { Dec, parseDecimal, plain } from "./decimal";
import { EUR, type FoundRate, type RateBook } from "./rates";

/** A rate one conversion used. */
export interface RateUsed {
  currency: string;
  /** Units of currency per 1 EUR. */
  perEur: string;
  /** The date the rate is for (on or before the value's date). */
  date: string;
  source: string;
}

export type Conversion =
  | {
      ok: true;
      /** The converted amount, unrounded (round only what is shown: fixed()). */
      amount: string;
      value: Dec;
      /** Units of `to` per unit of `from`. */
      rate: string;
      /** The oldest rate date used (the one a reader should see), or null when from = to. */
      rateDate: string | null;
      /** The rates used: none (same currency), one (either side EUR) or two (through EUR). */
      rates: RateUsed[];
    }
  | {
      ok: false;
      reason: "missing";
      /** The currencies that have no rate on or before the date (one or two). */
      missing: string[];
      date: string;
    }
  | { ok: false; reason: "invalidAmount" };

export interface ConvertOptions {
  /** A rate older than this many days before the value's date counts as missing (default: any
   * rate on or before the date is used, and rateDate tells how old it is). */
  maxAgeDays?: number;
}

function used(r: FoundRate): RateUsed {
  return { currency: r.currency, perEur: plain(r.perEur), date: r.date, source: r.source };
}

function daysBefore(from: string, to: string): number {
  return (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
}

/**
 * Converts `amount` (a decimal string) of currency `from` into `to` with the rates of `date`
 * (the latest on or before it). amount(to) = amount(from) × perEur(to) / perEur(from).
 */
export function convert(
  amount: string | Dec,
  from: string,
  to: string,
  date: string,
  rates: RateBook,
  options: ConvertOptions = {},
): Conversion {
  const value = typeof amount === "string" ? parseDecimal(amount) : amount;
  if (!value) return { ok: false, reason: "invalidAmount" };
  if (from === to) return { ok: true, amount: plain(value), value, rate: "1", rateDate: null, rates: [] };
  const legs: FoundRate[] = [];
  const missing: string[] = [];
  for (const currency of [from, to]) {
    if (currency === EUR) continue;
    const r = rates.rateOn(currency, date);
    if (!r || (options.maxAgeDays !== undefined && daysBefore(r.date, date) > options.maxAgeDays)) missing.push(currency);
    else legs.push(r);
  }
  if (missing.length > 0) return { ok: false, reason: "missing", missing, date };
  const perFrom = from === EUR ? new Dec(1) : legs[0]!.perEur;
  const perTo = to === EUR ? new Dec(1) : legs[legs.length - 1]!.perEur;
  const rate = perTo.div(perFrom);
  const out = value.mul(perTo).div(perFrom);
  const rateDate = legs.map((l) => l.date).sort()[0] ?? null;
  return { ok: true, amount: plain(out), value: out, rate: plain(rate), rateDate, rates: legs.map(used) };
}
