// Conversion for many values: the factor of each (currency, date) is computed once with H8's
// convert (on or before the date, through EUR, never 1:1) and reused; the rate dates used are
// recorded so the screen can say which ones it used.
import { convert, Dec, type RateBook } from "../money";

export interface Converter {
  /** amount in `currency` dated `date` → the target currency, or null when a rate is missing. */
  (amount: Dec, currency: string, date: string): Dec | null;
  /** The currencies missing for a (currency, date), after a failed call. */
  missingOf(currency: string, date: string): string[];
  oldest: string | null;
  newest: string | null;
}

/** A converter to `to`, each value at its own date, or every value at the date `at`. */
export function makeConverter(book: RateBook, to: string, at?: string): Converter {
  const cache = new Map<string, { factor: Dec } | { missing: string[] }>();
  const conv = ((amount: Dec, currency: string, date: string) => {
    if (currency === to) return amount;
    const d = at ?? date;
    const key = `${currency}|${d}`;
    let entry = cache.get(key);
    if (entry === undefined) {
      const c = convert(new Dec(1), currency, to, d, book);
      if (c.ok) {
        entry = { factor: c.value };
        for (const r of c.rates) {
          if (conv.oldest === null || r.date < conv.oldest) conv.oldest = r.date;
          if (conv.newest === null || r.date > conv.newest) conv.newest = r.date;
        }
      } else entry = { missing: c.reason === "missing" ? c.missing : [] };
      cache.set(key, entry);
    }
    return "factor" in entry ? amount.mul(entry.factor) : null;
  }) as Converter;
  conv.missingOf = (currency, date) => {
    const e = cache.get(`${currency}|${at ?? date}`);
    return e && "missing" in e ? e.missing : [];
  };
  conv.oldest = null;
  conv.newest = null;
  return conv;
}
