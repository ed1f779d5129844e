// Totals in a base currency: every amount converted with the rate of its own date; an amount whose
// rate is missing is left out of the total and reported, so the screen can warn and list it.
import { convert, type ConvertOptions } from "./convert";
import { Dec, fixed, plain } from "./decimal";
import type { RateBook } from "./rates";

export interface MoneyItem<K = string> {
  /** Who the amount belongs to (an asset id...), handed back in `missing`. */
  key: K;
  /** A decimal string; negative for what is owed. */
  amount: string;
  currency: string;
  /** The date of the value: the rate on or before it is used. */
  date: string;
}

export interface MissingConversion<K = string> {
  key: K;
  amount: string;
  currency: string;
  date: string;
  /** The currencies without a rate (the item's, the base's, or both). */
  missing: string[];
}

export interface BaseTotal<K = string> {
  /** The sum of the converted amounts, unrounded. */
  total: string;
  value: Dec;
  base: string;
  /** How many items the total holds. */
  included: number;
  /** The items left out because a rate is missing (or the amount is not a decimal). */
  missing: MissingConversion<K>[];
  /** The oldest and the newest rate date used (null when no conversion needed a rate). */
  oldestRateDate: string | null;
  newestRateDate: string | null;
  /** true when nothing was left out. */
  complete: boolean;
}

/** Sums items in `base`. */
export function sumInBase<K>(items: Iterable<MoneyItem<K>>, base: string, rates: RateBook, options: ConvertOptions = {}): BaseTotal<K> {
  let total = new Dec(0);
  let included = 0;
  let oldest: string | null = null;
  let newest: string | null = null;
  const missing: MissingConversion<K>[] = [];
  for (const item of items) {
    const c = convert(item.amount, item.currency, base, item.date, rates, options);
    if (!c.ok) {
      missing.push({ key: item.key, amount: item.amount, currency: item.currency, date: item.date, missing: c.reason === "missing" ? c.missing : [] });
      continue;
    }
    total = total.add(c.value);
    included++;
    for (const r of c.rates) {
      if (oldest === null || r.date < oldest) oldest = r.date;
      if (newest === null || r.date > newest) newest = r.date;
    }
  }
  return { total: plain(total), value: total, base, included, missing, oldestRateDate: oldest, newestRateDate: newest, complete: missing.length === 0 };
}

/** Per-currency totals (pwa/src/assets' MoneyTotals: [{ currency, amount }]) converted into one
 * base-currency total with the rates of one date (today's for a current figure). */
export function totalsInBase(totals: readonly { currency: string; amount: string }[], base: string, date: string, rates: RateBook): BaseTotal<string> {
  return sumInBase(
    totals.map((t) => ({ key: t.currency, amount: t.amount, currency: t.currency, date })),
    base,
    rates,
  );
}

/** The minor units (decimals) of a currency as ISO 4217 writes them; 2 when not listed below. */
const MINOR_UNITS: Record<string, number> = {
  BHD: 3, BIF: 0, CLF: 4, CLP: 0, DJF: 0, GNF: 0, IQD: 3, ISK: 0, JOD: 3, JPY: 0, KMF: 0, KRW: 0, KWD: 3, LYD: 3,
  OMR: 3, PYG: 0, RWF: 0, TND: 3, UGX: 0, UYI: 0, UYW: 4, VND: 0, VUV: 0, XAF: 0, XOF: 0, XPF: 0,
};

export function minorUnits(currency: string): number {
  return MINOR_UNITS[currency] ?? 2;
}

/** An amount rounded to its currency's minor units (half to even), for showing a total. */
export function roundMoney(amount: string | Dec, currency: string): string {
  return fixed(typeof amount === "string" ? new Dec(amount) : amount, minorUnits(currency));
}

export { plain };
