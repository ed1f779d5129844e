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

/**
 * The decimals a currency's amounts are written with: EUR 2, JPY 0, BHD 3. The platform's (CLDR)
 * figure, which is also what every amount is shown with (`Intl.NumberFormat`), so rounding an
 * amount here and showing it never round twice. CLDR and ISO 4217 differ for 17 currencies
 * (COP, HUF, IDR, IQD… are written without cents); 2 for a code the platform does not know.
 */
export function minorUnits(currency: string): number {
  try {
    return new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount rounded to its currency's decimals (half to even), for showing a total. */
export function roundMoney(amount: string | Dec, currency: string): string {
  return fixed(typeof amount === "string" ? new Dec(amount) : amount, minorUnits(currency));
}

export { plain };
