// The periods returns are shown for (1M, YTD, 1Y, all) and cutting a holding's history to one,
// and a holding's history converted to another currency (the FX effect: the same return in the
// asset's currency and in the base currency).
import { convert } from "./convert";
import type { RateBook } from "./rates";
import type { Flow, ReturnInput, Valuation } from "./returns";

export const PERIODS = ["1M", "YTD", "1Y", "all"] as const;
export type Period = (typeof PERIODS)[number];

/** The first day of a period ending on `today` (YYYY-MM-DD); undefined for "all". 1M and 1Y go
 * back one calendar month or year (31 March − 1M = 28 or 29 February). */
export function periodStart(period: Period, today: string): string | undefined {
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  const clamp = (year: number, month: number, day: number) => {
    const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
    return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(day, last)).padStart(2, "0")}`;
  };
  switch (period) {
    case "1M":
      return m === 1 ? clamp(y - 1, 12, d) : clamp(y, m - 1, d);
    case "YTD":
      return `${String(y).padStart(4, "0")}-01-01`;
    case "1Y":
      return clamp(y - 1, m, d);
    case "all":
      return undefined;
  }
}

/**
 * The part of a history a period [from, to] needs: it starts at the last valuation on or before
 * `from` (the value the period starts with; when there is none, the holding began inside the
 * period and its whole history up to `to` is used) and ends at `to`.
 */
export function slicePeriod(input: ReturnInput, from: string | undefined, to: string): ReturnInput {
  const upTo = <T extends { date: string }>(xs: readonly T[]) => xs.filter((x) => x.date <= to);
  const valuations = upTo(input.valuations);
  const flows = upTo(input.flows);
  if (from === undefined) return { valuations, flows };
  let start: string | undefined;
  for (const v of valuations) if (v.date <= from && (start === undefined || v.date > start)) start = v.date;
  if (start === undefined) return { valuations, flows };
  const s = start;
  return { valuations: valuations.filter((v) => v.date >= s), flows: flows.filter((f) => f.date > s) };
}

export type Converted = { ok: true; input: ReturnInput } | { ok: false; reason: "missingRate"; missing: { currency: string; date: string }[] };

/** A history in `currency` converted to `base`, each value and flow with the rate of its own date.
 * Any missing rate makes the whole history unavailable (a return with a hole is not a return). */
export function convertHistory(input: ReturnInput, currency: string, base: string, rates: RateBook): Converted {
  const missing: { currency: string; date: string }[] = [];
  const one = <T extends Valuation | Flow>(x: T, amount: string): string => {
    const c = convert(amount, currency, base, x.date, rates);
    if (c.ok) return c.amount;
    if (c.reason === "missing") for (const m of c.missing) missing.push({ currency: m, date: x.date });
    return "0";
  };
  const valuations = input.valuations.map((v) => ({ date: v.date, value: one(v, v.value) }));
  const flows = input.flows.map((f) => ({ date: f.date, amount: one(f, f.amount) }));
  if (missing.length > 0) return { ok: false, reason: "missingRate", missing };
  return { ok: true, input: { valuations, flows } };
}

