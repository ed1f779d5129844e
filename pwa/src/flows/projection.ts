// Cash-flow projections in exact decimals (decimal.js), per currency (amounts in different
// currencies are never added together here: a total is one line per currency).
//
// A flow happens on its start date and then every step (daily: 1 day, weekly: 7 days, monthly: 1
// month, quarterly: 3 months, annual: 12 months; months counted from the start date, the day number
// clamped to shorter months) up to its end date included; open-ended without one. "once" happens on
// its start date only. A period's figure is amount × the occurrences that fall in it: inflows and
// outflows apart, and net = inflows − outflows.
import Decimal from "decimal.js";
import { addMonths, dayNumber, fromDayNumber, monthStart, parseYmd, yearStart } from "../liabilities/calendar";
import { plain } from "../liabilities/amortization";
import type { CashFlowDirection, CashFlowFrequency } from "./types";

const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export interface FlowTerms {
  direction: CashFlowDirection;
  /** Exact decimal string, positive; the direction gives the sign. */
  amount: string;
  currency: string;
  frequency: CashFlowFrequency;
  startDate: string;
  endDate?: string | undefined;
}

const MONTH_STEP: Partial<Record<CashFlowFrequency, number>> = { monthly: 1, quarterly: 3, annual: 12 };
const DAY_STEP: Partial<Record<CashFlowFrequency, number>> = { daily: 1, weekly: 7 };

/** How many times a flow happens on days `from` ≤ d < `to` (dates "YYYY-MM-DD"). */
export function occurrences(flow: Pick<FlowTerms, "frequency" | "startDate" | "endDate">, from: string, to: string): number {
  const last = flow.endDate; // inclusive
  if (to <= from) return 0;
  if (flow.frequency === "once") return flow.startDate >= from && flow.startDate < to && (last === undefined || flow.startDate <= last) ? 1 : 0;
  const dayStep = DAY_STEP[flow.frequency];
  if (dayStep !== undefined) {
    const start = dayNumber(flow.startDate);
    const lo = Math.max(start, dayNumber(from));
    const hi = Math.min(dayNumber(to) - 1, last === undefined ? Number.POSITIVE_INFINITY : dayNumber(last));
    if (hi < lo) return 0;
    // The first k with start + k·step ≥ lo, the last with start + k·step ≤ hi.
    const first = Math.ceil((lo - start) / dayStep);
    const lastK = Math.floor((hi - start) / dayStep);
    return Math.max(0, lastK - first + 1);
  }
  const step = MONTH_STEP[flow.frequency];
  if (step === undefined) return 0;
  const s = parseYmd(flow.startDate);
  const f = parseYmd(from);
  if (!s || !f) return 0;
  // Start one step early (the clamped day may fall either side of `from`) and walk.
  let k = Math.max(0, Math.floor(((f.y - s.y) * 12 + (f.m - s.m)) / step) - 1);
  let count = 0;
  for (;;) {
    const d = addMonths(flow.startDate, k * step);
    if (d >= to || (last !== undefined && d > last)) break;
    if (d >= from) count++;
    k++;
  }
  return count;
}

export interface CurrencyLine {
  currency: string;
  inflow: string;
  outflow: string;
  /** inflow − outflow (negative when more goes out). */
  net: string;
}

export interface PeriodTotals {
  /** "2025-03" for a month, "2025" for a year. */
  period: string;
  /** First day of the period and the first day after it. */
  from: string;
  to: string;
  /** One line per currency with any occurrence in the period, sorted by currency code. */
  lines: CurrencyLine[];
}

/** Totals of the flows on days from ≤ d < to, per currency. */
export function totalsBetween(flows: readonly FlowTerms[], from: string, to: string): CurrencyLine[] {
  const sums = new Map<string, { inflow: Decimal; outflow: Decimal }>();
  for (const flow of flows) {
    const n = occurrences(flow, from, to);
    if (n === 0) continue;
    const sum = sums.get(flow.currency) ?? { inflow: new D(0), outflow: new D(0) };
    const amount = new D(flow.amount).mul(n);
    if (flow.direction === "inflow") sum.inflow = sum.inflow.plus(amount);
    else sum.outflow = sum.outflow.plus(amount);
    sums.set(flow.currency, sum);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, s]) => ({ currency, inflow: plain(s.inflow), outflow: plain(s.outflow), net: plain(s.inflow.minus(s.outflow)) }));
}

/** The calendar months from the month of `today` on (`count` of them), each with its totals. */
export function monthlyProjection(flows: readonly FlowTerms[], today: string, count = 12): PeriodTotals[] {
  const first = monthStart(today);
  return Array.from({ length: count }, (_, i) => {
    const from = addMonths(first, i);
    const to = addMonths(first, i + 1);
    return { period: from.slice(0, 7), from, to, lines: totalsBetween(flows, from, to) };
  });
}

/** The calendar years from the year of `today` on (`count` of them), each with its totals. */
export function yearlyProjection(flows: readonly FlowTerms[], today: string, count = 5): PeriodTotals[] {
  const first = yearStart(today);
  return Array.from({ length: count }, (_, i) => {
    const from = addMonths(first, 12 * i);
    const to = addMonths(first, 12 * (i + 1));
    return { period: from.slice(0, 4), from, to, lines: totalsBetween(flows, from, to) };
  });
}

/**
 * The window of "the next twelve months": [today, today + 12 months). On 29 February, whose date a
 * year on does not exist, it is 1 March to 1 March instead: [today, 28 February) lost a month of any
 * flow due on the 28th (11 rents, not 12), and [today, 1 March) counted a flow due on the 29th to
 * 31st twice (on 29 February and on its 28 February a year on). Twelve whole months count every
 * monthly flow 12 times; a one-off dated that 29 February itself is left out.
 */
export function twelveMonthWindow(today: string): { from: string; to: string } {
  const to = addMonths(today, 12);
  if (to.slice(8) >= today.slice(8)) return { from: today, to };
  const next = fromDayNumber(dayNumber(to) + 1);
  return { from: fromDayNumber(dayNumber(today) + 1), to: next };
}

/** The next twelve months from `today` (today included), per currency. */
export function nextTwelveMonths(flows: readonly FlowTerms[], today: string): CurrencyLine[] {
  const { from, to } = twelveMonthWindow(today);
  return totalsBetween(flows, from, to);
}

export type YieldResult =
  | {
      ok: true;
      /** Net of the asset's periodic flows over the next 12 months, in the asset's currency. */
      annualNet: string;
      /** annualNet / current value × 100, two decimals (half up). */
      yieldPercent: string;
      /** Flows of the asset in other currencies (not converted), for the reader to see apart. */
      otherCurrencies: CurrencyLine[];
    }
  | { ok: false; reason: "noFlows" | "noValue"; otherCurrencies: CurrencyLine[] };

/**
 * The yield of an asset from its flows: the net of its PERIODIC flows over the next twelve months
 * (a one-off sale or purchase is not income) divided by the asset's current value. Only flows in the
 * asset's currency count (no exchange rates here); the others are listed apart.
 */
export function assetYield(flows: readonly FlowTerms[], asset: { currentValue?: string | undefined; currency: string }, today: string): YieldResult {
  const periodic = flows.filter((f) => f.frequency !== "once");
  const lines = nextTwelveMonths(periodic, today);
  const own = lines.find((l) => l.currency === asset.currency);
  const otherCurrencies = lines.filter((l) => l.currency !== asset.currency);
  if (!own) return { ok: false, reason: "noFlows", otherCurrencies };
  if (asset.currentValue === undefined || asset.currentValue === "" || new D(asset.currentValue).lte(0)) {
    return { ok: false, reason: "noValue", otherCurrencies };
  }
  const pct = new D(own.net).div(asset.currentValue).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return { ok: true, annualNet: own.net, yieldPercent: plain(pct), otherCurrencies };
}
