// Investment returns of one holding (an asset, a class, a structure: whatever the caller adds up),
// in exact decimals. Three figures, each "not available" with its reason rather than a made-up 0 %:
//
// - simple: gain / money at stake, gain = last value − first value − net flows, money at stake =
//   first value + money put in.
// - time-weighted (TWR): the growth factors of the sub-periods between consecutive valuations,
//   chained. A flow on a valuation's date is inside that valuation (values are end-of-day), which
//   makes the chain exact; flows between two valuations are weighted by the time they were
//   invested (modified Dietz) and the result says it is approximate.
// - money-weighted (MWR): the XIRR of the investor's cash flows (first value or purchase, flows,
//   last value), solved with a bracketing solver that always answers or says why not.
//
// Signs of flows: amount > 0 is money put into the holding (purchase, contribution, costs paid),
// amount < 0 is money taken out (sale proceeds, dividends, rent received). Returns are fractions
// as decimal strings: "0.1234" is 12.34 %.
import { daysBetween } from "./dates";
import { Dec, parseDecimal, plain } from "./decimal";

export interface Valuation {
  date: string;
  /** The holding's value at the end of that day (after that day's flows). */
  value: string;
}

export interface Flow {
  date: string;
  amount: string;
}

export interface ReturnInput {
  valuations: readonly Valuation[];
  flows: readonly Flow[];
}

export type Unavailable =
  /** No valuation at all, or none at the end. */
  | "noValuation"
  /** The period has no length (everything on one day). */
  | "noPeriod"
  /** Nothing was at stake (no value, no money put in). */
  | "noCapital"
  /** A flow after the last valuation: the last value does not account for it. */
  | "flowAfterLastValuation"
  /** An amount or value is not a decimal, or a date is not a date. */
  | "invalidInput"
  /** Money only came out, never went in. */
  | "noInvestment"
  /** The cash flows have no rate that balances them (they change sign in a way no rate fits). */
  | "noSolution"
  /** A value could not be converted: an exchange rate is missing. */
  | "missingRate";

export type ReturnResult =
  | {
      ok: true;
      /** The return over the period, a fraction ("0.05" = 5 %), 12 decimals at most. */
      value: string;
      from: string;
      to: string;
      days: number;
      /** true when flows fell between valuations and modified Dietz weighted them (TWR only). */
      approximate: boolean;
    }
  | { ok: false; reason: Unavailable };

const OUT_DECIMALS = 12;

function out(d: Dec): string {
  return plain(d.toDecimalPlaces(OUT_DECIMALS, Dec.ROUND_HALF_EVEN));
}

interface Point {
  date: string;
  value: Dec;
}

interface Move {
  date: string;
  amount: Dec;
}

interface Prepared {
  /** The starting point: the first valuation, or a value of 0 on the first flow's date when money
   * went in before anything was valued. */
  start: Point;
  /** true when start is that synthetic 0 (flows on its date count as made at the start). */
  synthetic: boolean;
  /** Valuations after the start, by date (the last one per date). */
  points: Point[];
  /** Flows that the valuations after the start do not contain yet, by date. */
  flows: Move[];
}

function prepare(input: ReturnInput): Prepared | Unavailable {
  const byDate = new Map<string, Dec>();
  for (const v of input.valuations) {
    const value = parseDecimal(v.value);
    if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(v.date)) return "invalidInput";
    byDate.set(v.date, value);
  }
  const flows: Move[] = [];
  for (const f of input.flows) {
    const amount = parseDecimal(f.amount);
    if (!amount || !/^\d{4}-\d{2}-\d{2}$/.test(f.date)) return "invalidInput";
    if (!amount.isZero()) flows.push({ date: f.date, amount });
  }
  const points = [...byDate.entries()].map(([date, value]) => ({ date, value })).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  flows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (points.length === 0) return "noValuation";
  const last = points[points.length - 1]!;
  if (flows.some((f) => f.date > last.date)) return "flowAfterLastValuation";
  const first = points[0]!;
  if (flows.length > 0 && flows[0]!.date < first.date) {
    return { start: { date: flows[0]!.date, value: new Dec(0) }, synthetic: true, points, flows };
  }
  // Flows on the first valuation's date (or before) are inside its value.
  return { start: first, synthetic: false, points: points.slice(1), flows: flows.filter((f) => f.date > first.date) };
}

/** Simple return: (last value − first value − net flows) / (first value + money put in). */
export function simpleReturn(input: ReturnInput): ReturnResult {
  const p = prepare(input);
  if (typeof p === "string") return { ok: false, reason: p };
  const end = p.points[p.points.length - 1];
  if (!end) return { ok: false, reason: "noPeriod" };
  let net = new Dec(0);
  let putIn = new Dec(0);
  for (const f of p.flows) {
    net = net.add(f.amount);
    if (f.amount.isPositive()) putIn = putIn.add(f.amount);
  }
  const atStake = p.start.value.add(putIn);
  if (!atStake.isPositive() || atStake.isZero()) return { ok: false, reason: "noCapital" };
  const gain = end.value.sub(p.start.value).sub(net);
  return { ok: true, value: out(gain.div(atStake)), from: p.start.date, to: end.date, days: daysBetween(p.start.date, end.date), approximate: false };
}

/** Time-weighted return, chained between valuations (see the file's comment). */
export function timeWeightedReturn(input: ReturnInput): ReturnResult {
  const p = prepare(input);
  if (typeof p === "string") return { ok: false, reason: p };
  if (p.points.length === 0) return { ok: false, reason: "noPeriod" };
  let growth = new Dec(1);
  let approximate = false;
  let a = p.start;
  let fi = 0;
  let invested = !p.start.value.isZero();
  for (const b of p.points) {
    const length = daysBetween(a.date, b.date);
    let netFlows = new Dec(0);
    let weighted = new Dec(0);
    for (; fi < p.flows.length && p.flows[fi]!.date <= b.date; fi++) {
      const f = p.flows[fi]!;
      netFlows = netFlows.add(f.amount);
      // The share of the sub-period the money was in: 1 at its start, 0 on its last day (the
      // valuation already holds it).
      const w = new Dec(daysBetween(f.date, b.date)).div(length);
      // Exact on the sub-period's last day (w = 0) and on the first day of a holding that started
      // at 0 (w = 1); weighted in between.
      if (!w.isZero() && !w.eq(1)) approximate = true;
      weighted = weighted.add(f.amount.mul(w));
    }
    const base = a.value.add(weighted);
    const gain = b.value.sub(a.value).sub(netFlows);
    if (base.isZero() && gain.isZero()) {
      // Nothing at stake and nothing earned: the sub-period does not move the chain.
    } else if (!base.isPositive() || base.isZero()) {
      return { ok: false, reason: "noCapital" };
    } else {
      invested = true;
      growth = growth.mul(new Dec(1).add(gain.div(base)));
    }
    a = b;
  }
  if (!invested) return { ok: false, reason: "noCapital" };
  const end = p.points[p.points.length - 1]!;
  // A chain that fell below −100 % (modified Dietz can overshoot) is a total loss.
  const r = Dec.max(growth.sub(1), -1);
  return { ok: true, value: out(r), from: p.start.date, to: end.date, days: daysBetween(p.start.date, end.date), approximate };
}

// ---------------------------------------------------------------- XIRR

/** A cash flow as a spreadsheet's XIRR takes it: negative = paid by the investor, positive =
 * received (including the last value, as if sold). */
export interface CashFlow {
  date: string;
  amount: string;
}

export type XirrResult =
  | {
      ok: true;
      /** The annual rate, as a spreadsheet's XIRR gives it: Σ amount / (1 + rate)^(days/365) = 0. */
      annualRate: string;
      /** The return over the whole span: (1 + rate)^(days/365) − 1. */
      periodReturn: string;
      days: number;
      /** Whether annualRate means something: the span is at least a year. A holding of a few days
       * gives an annual rate of thousands of percent or of almost −100 %; show periodReturn. */
      annualizable: boolean;
      /** The flows change sign more than once and another rate also balances them; the one
       * nearest to 0 % is given. */
      multipleRoots: boolean;
      /** Nothing came back: −100 %, exactly. */
      totalLoss: boolean;
    }
  | { ok: false; reason: Unavailable };

const YEAR = 365;

/** The solver's decimals: 30 significant digits are far more than a rate needs (the answer is
 * given to 12 decimals) and keep each evaluation cheap. */
const S = Dec.clone({ precision: 30 });
type S = InstanceType<typeof S>;

/** Exponents x = ln(1 + rate) searched outward from 0 for a sign change: ±100000 reaches rates
 * within e^-100000 of −100 % and beyond any growth a holding of one day can show. */
const STEPS = [0.03, 0.1, 0.3, 1, 3, 10, 30, 100, 300, 1000, 3000, 10000, 100000];
/** q = e^(−x/365), the daily discount factor of each grid exponent, computed once. */
let grid: { x: number; q: S }[] | undefined;
function qGrid(): { x: number; q: S }[] {
  grid ??= [...STEPS.map((x) => -x).reverse(), 0, ...STEPS].map((x) => ({ x, q: new S(-x).div(YEAR).exp() }));
  return grid;
}

/**
 * XIRR with a bracketing solver. With the daily discount factor q = (1 + rate)^(−1/365) the net
 * present value is a polynomial, NPV(q) = Σ amount_i · q^(days_i), defined for every q > 0, so
 * rates near −100 % (q large) are found as surely as large ones (q near 0). A grid of q values
 * outward from rate 0 % brackets a root (when the amounts change sign once, a binary-float guess
 * checked in decimals brackets it first); Newton steps kept inside the bracket, with bisection
 * when a step would leave it, narrow it, which always converges. Everything that decides the
 * answer is computed in decimals (30 digits).
 */
export function xirr(flows: readonly CashFlow[]): XirrResult {
  const parsed: Move[] = [];
  for (const f of flows) {
    const amount = parseDecimal(f.amount);
    if (!amount || !/^\d{4}-\d{2}-\d{2}$/.test(f.date)) return { ok: false, reason: "invalidInput" };
    if (!amount.isZero()) parsed.push({ date: f.date, amount });
  }
  if (parsed.length === 0) return { ok: false, reason: "noCapital" };
  parsed.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  const first = parsed[0]!.date;
  const days = daysBetween(first, parsed[parsed.length - 1]!.date);
  const paid = parsed.some((f) => f.amount.isNegative());
  const received = parsed.some((f) => f.amount.isPositive());
  if (!paid) return { ok: false, reason: "noInvestment" };
  if (!received) {
    // Money went in and nothing came back (the last value is 0): −100 %, which no rate reaches.
    return { ok: true, annualRate: "-1", periodReturn: "-1", days, annualizable: days >= YEAR, multipleRoots: false, totalLoss: true };
  }
  if (days === 0) return { ok: false, reason: "noPeriod" };
  // Same-day flows added up, in date order: (day since the first, gap since the previous, amount).
  const terms: { day: number; gap: number; amount: S }[] = [];
  let prev = 0;
  for (const f of parsed) {
    const d = daysBetween(first, f.date);
    const last = terms[terms.length - 1];
    if (last && d === prev) last.amount = last.amount.add(f.amount.toString());
    else terms.push({ day: d, gap: d - prev, amount: new S(f.amount.toString()) });
    prev = d;
  }
  /** NPV(q) and q·NPV'(q) = Σ amount · day · q^day. */
  const npv2 = (q: S): [S, S] => {
    let sum = new S(0);
    let slope = new S(0);
    let power = new S(1);
    for (const { day, gap, amount } of terms) {
      if (gap > 0) power = power.mul(q.pow(gap));
      const term = amount.mul(power);
      sum = sum.add(term);
      if (day > 0) slope = slope.add(term.mul(day));
    }
    return [sum, slope];
  };
  const npv = (q: S): S => npv2(q)[0];
  // Descartes' rule of signs: the number of sign changes of the amounts in date order bounds the
  // number of positive roots q. One change: one root, the first bracket found is it.
  const signs = terms.filter((t) => !t.amount.isZero()).map((t) => t.amount.isNegative());
  let changes = 0;
  for (let i = 1; i < signs.length; i++) if (signs[i] !== signs[i - 1]) changes++;
  let multipleRoots = false;

  // Newton's method kept inside a bracket [lo, hi] of q: a step that would leave it is replaced by
  // a bisection (geometric while the bracket is wide: q from e^-274 to 1 shrinks by orders of
  // magnitude), and every evaluation narrows the bracket, so it always converges.
  // q to 17 significant digits puts the annual rate within 4e-15 of the root (x = −365 ln q).
  const tolerance = new S("1e-17");
  const refine = (lo: S, hi: S, loNegative: boolean, start: S | undefined): S => {
    let q = start && start.gt(lo) && start.lt(hi) ? start : lo.mul(hi).sqrt();
    for (let k = 0; k < 400; k++) {
      const [f, qSlope] = npv2(q);
      if (f.isZero()) break;
      if (f.isNegative() === loNegative) lo = q;
      else hi = q;
      if (hi.sub(lo).lte(hi.mul(tolerance))) break;
      const next = qSlope.isZero() ? undefined : q.sub(f.mul(q).div(qSlope));
      if (next && next.gt(lo) && next.lt(hi)) {
        const step = next.sub(q).abs();
        q = next;
        if (step.lte(q.mul(tolerance))) break;
      } else {
        q = hi.div(lo).gt(2) ? lo.mul(hi).sqrt() : lo.add(hi).div(2);
      }
    }
    return q;
  };

  let q: S | undefined;
  // One sign change: one root. A binary-float guess, checked in decimals by a sign change within
  // a relative 1e-12 of it, saves the grid search (the guess only chooses where to look).
  if (changes === 1) {
    const guess = floatGuess(terms);
    if (guess) {
      const lo = guess.mul(new S(1).sub("1e-12"));
      const hi = guess.mul(new S(1).add("1e-12"));
      const fLo = npv(lo);
      const fHi = npv(hi);
      if (fLo.isZero()) q = lo;
      else if (fHi.isZero()) q = hi;
      else if (fLo.isNegative() !== fHi.isNegative()) q = refine(lo, hi, fLo.isNegative(), guess);
    }
  }

  if (!q) {
    const g = qGrid();
    const zero = STEPS.length; // index of x = 0
    const values = new Map<number, S>();
    const value = (i: number) => {
      let v = values.get(i);
      if (!v) values.set(i, (v = npv(g[i]!.q)));
      return v;
    };
    // Brackets [i, i+1] of the grid (in x order) with a sign change, or exact zeros, nearest to 0 first.
    let best: { lo: number; hi: number; distance: number } | { exact: number; distance: number } | undefined;
    let found = 0;
    const consider = (i: number, j: number) => {
      const a = value(i);
      const b = value(j);
      const distance = Math.min(Math.abs(g[i]!.x), Math.abs(g[j]!.x));
      if (a.isZero()) {
        found++;
        if (!best || Math.abs(g[i]!.x) < best.distance) best = { exact: i, distance: Math.abs(g[i]!.x) };
      } else if (!b.isZero() && a.isNegative() !== b.isNegative()) {
        found++;
        if (!best || distance < best.distance) best = { lo: i, hi: j, distance };
      }
    };
    for (let k = 0; k < STEPS.length; k++) {
      consider(zero + k, zero + k + 1);
      consider(zero - k - 1, zero - k);
      if (best && changes <= 1) break;
    }
    if (!best) return { ok: false, reason: "noSolution" };
    multipleRoots = changes > 1 && found > 1;
    if ("exact" in best) {
      q = g[best.exact]!.q;
    } else {
      // q falls as x grows: the bracket's larger x is its smaller q.
      q = refine(g[best.hi]!.q, g[best.lo]!.q, value(best.hi).isNegative(), startingPoint(terms, g[best.lo]!.x, g[best.hi]!.x));
    }
  }
  const annualRate = new Dec(q.toString()).pow(-YEAR).sub(1);
  const periodReturn = new Dec(q.toString()).pow(-days).sub(1);
  return {
    ok: true,
    annualRate: out(annualRate),
    periodReturn: out(periodReturn),
    days,
    annualizable: days >= YEAR,
    multipleRoots,
    totalLoss: false,
  };
}

/**
 * A first guess of q for the decimal Newton steps: Newton on x in binary floating point, inside
 * the bracket [xLo, xHi]. Only a starting point (the decimal iteration checks and refines it, and
 * falls back to bisection when it is no good): no amount is ever summed in floats for a result.
 */
function startingPoint(terms: readonly { day: number; amount: S }[], xLo: number, xHi: number): S | undefined {
  const ts = terms.map((t) => ({ a: t.amount.toNumber(), t: t.day / YEAR }));
  let x = Math.min(Math.max(0, xLo), xHi);
  for (let k = 0; k < 50; k++) {
    let f = 0;
    let df = 0;
    for (const { a, t } of ts) {
      const e = Math.exp(-x * t);
      f += a * e;
      df -= a * t * e;
    }
    if (!Number.isFinite(f) || !Number.isFinite(df) || df === 0) return undefined;
    let next = x - f / df;
    if (!(next > xLo && next < xHi)) next = (x + (next <= xLo ? xLo : xHi)) / 2;
    if (Math.abs(next - x) < 1e-15) break;
    x = next;
  }
  const q = Math.exp(-x / YEAR);
  return Number.isFinite(q) && q > 0 ? new S(q) : undefined;
}

/** A binary-float estimate of the root q when the amounts change sign once (one root): the
 * float grid bracket nearest 0 %, then startingPoint. undefined when floats overflow. */
function floatGuess(terms: readonly { day: number; amount: S }[]): S | undefined {
  const ts = terms.map((t) => ({ a: t.amount.toNumber(), t: t.day / YEAR }));
  const f = (x: number) => ts.reduce((sum, { a, t }) => sum + a * Math.exp(-x * t), 0);
  // Only the exponents whose e^(x·t) a float holds (|x·t| < 700).
  const span = Math.max(...ts.map((t) => t.t), 1 / YEAR);
  const xs = [...STEPS.map((x) => -x).reverse(), 0, ...STEPS].filter((x) => Math.abs(x) * span < 700);
  const fs = xs.map(f);
  if (!fs.every(Number.isFinite)) return undefined;
  let best: [number, number] | undefined;
  for (let i = 0; i + 1 < xs.length; i++) {
    if (Math.sign(fs[i]!) * Math.sign(fs[i + 1]!) < 0 && (!best || Math.min(Math.abs(xs[i]!), Math.abs(xs[i + 1]!)) < Math.min(Math.abs(best[0]), Math.abs(best[1])))) {
      best = [xs[i]!, xs[i + 1]!];
    }
  }
  return best ? startingPoint(terms, best[0], best[1]) : undefined;
}

/** The investor's cash flows of a holding: the first value (or nothing, when it starts with a
 * purchase) paid in, each flow with the investor's sign, and the last value received. */
export function investorCashFlows(input: ReturnInput): CashFlow[] | Unavailable {
  const p = prepare(input);
  if (typeof p === "string") return p;
  const end = p.points[p.points.length - 1];
  if (!end) return "noPeriod";
  const out: CashFlow[] = [];
  if (!p.start.value.isZero()) out.push({ date: p.start.date, amount: plain(p.start.value.neg()) });
  for (const f of p.flows) out.push({ date: f.date, amount: plain(f.amount.neg()) });
  out.push({ date: end.date, amount: plain(end.value) });
  return out;
}

/** Money-weighted return (XIRR of investorCashFlows). */
export function moneyWeightedReturn(input: ReturnInput): XirrResult {
  const flows = investorCashFlows(input);
  if (typeof flows === "string") return { ok: false, reason: flows };
  return xirr(flows);
}
