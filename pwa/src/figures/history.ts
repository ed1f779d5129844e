// The figures that need the valuation history: net worth over time, its change over the last month
// and year, and the returns per asset, class and legal structure for 1M, YTD, 1Y and all.
//
// Net worth on a past date D: each asset's last value on or before D (× its effective share today:
// the structure chain's percentages have no history), minus the liabilities that had started by D
// (what each debt's schedule gives on D: liabilities/amortization.ts), all converted with the rate on or before D, as
// today's net worth is converted with today's rate (now.ts): the point of today is the headline.
//
// Returns of a group (a class, a structure): the members' values summed at every valuation date
// (each member at its last value on or before it). A member that joins later brings its purchase as
// money put in (or, without a known purchase, its first value), so a new asset is not a gain, and
// a member bought before its first value is valued at cost from its purchase date; the
// cash flows tied to an asset (flows.ts: rent and dividends out, costs in) are its contributions and
// withdrawals, up to the group's latest value. In
// the base currency every value uses the rate of its own date; "local" uses one rate for all (the
// rate of the period's end, today), so base − local is the effect of exchange rates. For one asset
// "local" is its own currency.
import {
  Dec,
  moneyWeightedReturn,
  periodStart,
  PERIODS,
  plain,
  simpleReturn,
  slicePeriod,
  timeWeightedReturn,
  type Period,
  type ReturnInput,
  type ReturnResult,
  type XirrResult,
} from "../money";
import { amountOf, borneDebt, pointOn, type Holding, type Point } from "./holdings";
import { makeConverter } from "./rates";
import type { Prepared } from "./now";
import type { Change, HistoryFigures, HistoryPoint, ReturnFigure, ReturnRow } from "./types";

/** Per-asset returns are computed up to this many assets (beyond, per class and structure only). */
export const ASSET_RETURNS_LIMIT = 500;

type Conv = (amount: Dec, currency: string, date: string) => Dec | null;

function converter(p: Prepared, to: string, at?: string): Conv {
  return makeConverter(p.book, to, at);
}

/** Net worth on `date` (see the header). */
export function netWorthOn(p: Prepared, date: string, base = p.input.base): HistoryPoint & { empty: boolean } {
  const conv = converter(p, base);
  let total = new Dec(0);
  let missing = 0;
  let counted = 0;
  for (const h of p.holdings) {
    // Sold or otherwise gone by that day: not part of the person's worth any more (holdings.ts).
    if (h.disposedOn !== undefined && h.disposedOn <= date) continue;
    const pt = pointOn(h.points, date);
    if (!pt) continue;
    const v = conv(amountOf(pt), pt.currency, date);
    if (v === null) missing++;
    else {
      total = total.add(v);
      counted++;
    }
  }
  const shareOf = new Map(p.holdings.map((h) => [h.asset.id, h.share]));
  for (const l of p.input.liabilities) {
    const amount = borneDebt(l, l.assetId !== undefined ? shareOf.get(l.assetId) : undefined, date);
    if (amount === null) continue;
    const v = conv(amount, l.currency, date);
    if (v === null) missing++;
    else total = total.sub(v);
  }
  return { date, total: plain(total), missing, empty: counted === 0 };
}

/** Month ends of the last 12 months, then today. */
export function seriesDates(today: string): string[] {
  const [y, m] = today.split("-").map(Number) as [number, number];
  const dates: string[] = [];
  for (let k = 12; k >= 1; k--) {
    const first = new Date(Date.UTC(y, m - 1 - k + 1, 1));
    const last = new Date(first.getTime() - 86_400_000);
    dates.push(last.toISOString().slice(0, 10));
  }
  dates.push(today);
  return dates;
}

function changeSince(p: Prepared, now: HistoryPoint, from: string): Change {
  const then = netWorthOn(p, from);
  if (then.empty) return { ok: false, reason: "noHistory" };
  const prev = new Dec(then.total);
  const change = new Dec(now.total).sub(prev);
  const out: Change = { ok: true, from, previous: then.total, change: plain(change), incomplete: then.missing > 0 || now.missing > 0 };
  if (!prev.isZero()) out.percent = plain(change.div(prev.abs()).toDecimalPlaces(12));
  return out;
}

interface FlaggedValuation {
  date: string;
  value: string;
  missing: boolean;
}
interface FlaggedFlow {
  date: string;
  amount: string;
  missing: boolean;
}

/** The summed history of some holdings with one conversion. */
export function groupHistory(members: readonly Holding[], conv: Conv): { valuations: FlaggedValuation[]; flows: FlaggedFlow[] } {
  const events: { date: string; member: number; value: Dec | null }[] = [];
  const flows: FlaggedFlow[] = [];
  members.forEach((h, i) => {
    for (const pt of h.points) events.push({ date: pt.date, member: i, value: conv(amountOf(pt), pt.currency, pt.date) });
    const first: Point | undefined = h.points[0];
    if (!first) return;
    const entry = h.purchase && h.purchase.date <= first.date ? h.purchase : first;
    const v = conv(amountOf(entry), entry.currency, entry.date);
    flows.push({ date: entry.date, amount: v === null ? "0" : plain(v), missing: v === null });
    // Bought before its first value: it is in the group at cost from its purchase on. Otherwise the
    // purchase would be money put in years before the value that holds it joins the total, and
    // the sub-periods in between would read as a loss of it (−100 %), or a later period that
    // starts after the purchase as a gain of the whole value. For one asset this is the same
    // history (returns.ts starts at the purchase either way).
    if (entry !== first) events.push({ date: entry.date, member: i, value: v });
    // The asset's own cash flows after it was bought (before it, it was not held).
    for (const f of h.flows) {
      if (f.date <= entry.date) continue;
      const a = conv(amountOf(f), f.currency, f.date);
      flows.push({ date: f.date, amount: a === null ? "0" : plain(a), missing: a === null });
    }
  });
  events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const latest: (Dec | null | undefined)[] = new Array(members.length);
  let total = new Dec(0);
  let missingCount = 0;
  const valuations: FlaggedValuation[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const old = latest[e.member];
    if (old === null) missingCount--;
    else if (old !== undefined) total = total.sub(old);
    if (e.value === null) missingCount++;
    else total = total.add(e.value);
    latest[e.member] = e.value;
    if (i + 1 === events.length || events[i + 1]!.date !== e.date) valuations.push({ date: e.date, value: plain(total), missing: missingCount > 0 });
  }
  // Returns are measured up to the latest value: flows after it wait for the next valuation
  // (otherwise the last value would not account for them: "flowAfterLastValuation").
  const lastDate = valuations[valuations.length - 1]?.date;
  flows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { valuations, flows: lastDate === undefined ? flows : flows.filter((f) => f.date <= lastDate) };
}

function fig(r: ReturnResult): ReturnFigure {
  return r.ok ? { ok: true, value: r.value, approximate: r.approximate } : { ok: false, reason: r.reason };
}

/** The money-weighted figure shown: the annual rate over a year or more, else the period's return;
 * flagged when another rate also balances the flows (the reader is told, not left with one). */
export function figX(r: XirrResult): ReturnFigure {
  if (!r.ok) return { ok: false, reason: r.reason };
  const f: ReturnFigure = r.annualizable ? { ok: true, value: r.annualRate, annualized: true } : { ok: true, value: r.periodReturn, annualized: false };
  if (r.multipleRoots) f.multipleRoots = true;
  return f;
}

const MISSING: ReturnFigure = { ok: false, reason: "missingRate" };

function threeReturns(history: { valuations: FlaggedValuation[]; flows: FlaggedFlow[] }, period: Period, today: string) {
  const sliced = slicePeriod(history as unknown as ReturnInput, periodStart(period, today), today) as unknown as {
    valuations: FlaggedValuation[];
    flows: FlaggedFlow[];
  };
  if (sliced.valuations.some((v) => v.missing) || sliced.flows.some((f) => f.missing)) return { simple: MISSING, twr: MISSING, mwr: MISSING };
  const input: ReturnInput = { valuations: sliced.valuations, flows: sliced.flows };
  return { simple: fig(simpleReturn(input)), twr: fig(timeWeightedReturn(input)), mwr: figX(moneyWeightedReturn(input)) };
}

function fxEffect(base: ReturnFigure, local: ReturnFigure): ReturnFigure {
  if (!base.ok) return base;
  if (!local.ok) return local;
  return { ok: true, value: plain(new Dec(base.value).sub(local.value)) };
}

/** The returns row of one asset or group. `localConv` converts to the local measure. */
export function returnRow(
  p: Prepared,
  kind: ReturnRow["kind"],
  id: string,
  name: string,
  currency: string,
  members: readonly Holding[],
  localConv: Conv,
  baseConv: Conv,
): ReturnRow {
  const local = groupHistory(members, localConv);
  const base = groupHistory(members, baseConv);
  const periods = {} as ReturnRow["periods"];
  for (const period of PERIODS) {
    const l = threeReturns(local, period, p.input.today);
    const b = threeReturns(base, period, p.input.today);
    periods[period] = { local: l, base: b, fx: fxEffect(b.twr, l.twr) };
  }
  return { kind, id, name, currency, periods };
}

export function computeHistory(p: Prepared): HistoryFigures {
  const { input } = p;
  const dates = seriesDates(input.today);
  const series = dates.map((d) => {
    const pt = netWorthOn(p, d);
    return { date: pt.date, total: pt.total, missing: pt.missing };
  });
  const now = netWorthOn(p, input.today);
  const change = {
    "1M": changeSince(p, now, periodStart("1M", input.today)!),
    "1Y": changeSince(p, now, periodStart("1Y", input.today)!),
  };

  const baseConv = converter(p, input.base);
  const constantConv = converter(p, input.base, input.today);
  const returns: ReturnRow[] = [];
  const byClass = new Map<number, Holding[]>();
  const byStructure = new Map<string, Holding[]>();
  for (const h of p.holdings) {
    let c = byClass.get(h.asset.classId);
    if (!c) byClass.set(h.asset.classId, (c = []));
    c.push(h);
    for (const sid of h.chain) {
      let s = byStructure.get(sid);
      if (!s) byStructure.set(sid, (s = []));
      s.push(h);
    }
  }
  for (const [classId, members] of [...byClass].sort((a, b) => a[0] - b[0])) {
    returns.push(returnRow(p, "class", String(classId), members[0]!.asset.assetClass, input.base, members, constantConv, baseConv));
  }
  const names = new Map(input.structures.map((s) => [s.id, s.name]));
  for (const [sid, members] of byStructure) returns.push(returnRow(p, "structure", sid, names.get(sid) ?? sid, input.base, members, constantConv, baseConv));
  const assetReturns = p.holdings.length <= ASSET_RETURNS_LIMIT;
  if (assetReturns) {
    for (const h of p.holdings) {
      if (h.points.length === 0) continue;
      returns.push(returnRow(p, "asset", h.asset.id, h.asset.name, h.asset.currency, [h], converter(p, h.asset.currency), baseConv));
    }
  }
  return { series, change, returns, assetReturns };
}
