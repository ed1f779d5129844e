// Exchange rates as the money code reads them: every rate is "units of a currency per 1 EUR" on a
// date (the ECB's way of writing them), from the server (ECB reference rates, the second source
// for currencies the ECB does not publish) or typed by a person of the workspace (the synced
// fxRates collection).
//
// Precedence (decision): for one currency and one date, a manual rate of the workspace wins over
// the server's, whatever the server's source: the person typed it on purpose (a bank's actual
// rate, a day the ECB did not publish). Between dates, the most recent date on or before the
// value's date wins, whoever wrote it: a manual rate of last week does not hide the ECB's rate of
// today. Between server sources on one date, the ECB wins over the second source.
import { Dec, parseDecimal } from "./decimal";

/** Where a rate comes from: "manual" (typed in the workspace) or the server's source name
 * ("ecb", "frankfurter", ...). */
export type RateSource = string;

/** One rate: `perEur` units of `currency` are worth 1 EUR on `date`. */
export interface EurRate {
  date: string;
  currency: string;
  perEur: string;
  source: RateSource;
}

/** The rate a lookup found: its value, the date it was published for and who wrote it. */
export interface FoundRate {
  currency: string;
  perEur: Dec;
  date: string;
  source: RateSource;
}

export const EUR = "EUR";
export const MANUAL = "manual";

/** Higher wins on the same currency and date. */
function rank(source: RateSource): number {
  if (source === MANUAL) return 3;
  if (source === "ecb") return 2;
  return 1;
}

interface Entry {
  date: string;
  perEur: Dec;
  source: RateSource;
}

/** Rates indexed per currency, sorted by date, one per date (the precedence above applied). */
export class RateBook {
  private readonly byCurrency = new Map<string, Entry[]>();

  /** Builds a book from server rates and manual rates; rows that are not a positive decimal, or
   * that price EUR itself, are left out (1 EUR is 1 EUR by definition). */
  constructor(rates: Iterable<EurRate>, manual: Iterable<EurRate> = []) {
    const best = new Map<string, Map<string, Entry>>();
    const add = (r: EurRate, source: RateSource) => {
      const perEur = parseDecimal(r.perEur);
      if (!perEur || !perEur.isPositive() || perEur.isZero() || r.currency === EUR) return;
      let dates = best.get(r.currency);
      if (!dates) best.set(r.currency, (dates = new Map()));
      const held = dates.get(r.date);
      if (!held || rank(source) > rank(held.source)) dates.set(r.date, { date: r.date, perEur, source });
    };
    for (const r of rates) add(r, r.source);
    for (const r of manual) add(r, MANUAL);
    for (const [currency, dates] of best) {
      this.byCurrency.set(
        currency,
        [...dates.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0)),
      );
    }
  }

  /** The currencies the book has at least one rate for (EUR not included). */
  currencies(): string[] {
    return [...this.byCurrency.keys()].sort();
  }

  /** The latest date any rate of the book has, or undefined for an empty book. */
  latestDate(): string | undefined {
    let latest: string | undefined;
    for (const entries of this.byCurrency.values()) {
      const d = entries[entries.length - 1]?.date;
      if (d && (!latest || d > latest)) latest = d;
    }
    return latest;
  }

  /** The rate of `currency` on `date` or the closest date before it; undefined when the book has
   * none that early. EUR is always 1 (dated the day asked, source "definition"). */
  rateOn(currency: string, date: string): FoundRate | undefined {
    if (currency === EUR) return { currency, perEur: new Dec(1), date, source: "definition" };
    const entries = this.byCurrency.get(currency);
    if (!entries || entries.length === 0) return undefined;
    // Binary search: the last entry with entry.date <= date.
    let lo = 0;
    let hi = entries.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid]!.date <= date) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (found < 0) return undefined;
    const e = entries[found]!;
    return { currency, perEur: e.perEur, date: e.date, source: e.source };
  }
}

/**
 * How far a typed rate is from a published one, as a factor (≥ 1): 1000 when "1.085" was read as
 * 1085 against 1.0856. Undefined within `limit` (3: more than any currency moved in a day, less
 * than a misplaced separator's 1000) or when the typed text is not a positive decimal.
 */
export function farFromPublished(typed: string, published: Dec, limit = 3): number | undefined {
  const value = parseDecimal(typed);
  if (!value || !value.isPositive() || value.isZero() || published.isZero()) return undefined;
  const ratio = value.div(published);
  const factor = ratio.greaterThanOrEqualTo(1) ? ratio : new Dec(1).div(ratio);
  return factor.greaterThan(limit) ? factor.toNumber() : undefined;
}
