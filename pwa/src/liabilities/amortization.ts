// A debt's monthly payment and its outstanding balance over time (a French, constant-payment
// amortization), in exact decimals (decimal.js, never binary floats).
//
//   monthly rate   r = annual rate / 12 / 100
//   months left    n = whole months from the anchor to the end date, a part month counting as one
//                      (anchor = the day the amount was true, or the start date when the debt had
//                      not started by then)
//   payment        A = P · r / (1 − (1 + r)^−n)     (r = 0: A = P / n)
//
// P is the amount outstanding on the day it was typed (`amountAsOf`). The schedule is worked out
// once from that day, and rolled forward to today: the payments due up to today are taken as paid,
// today's balance is the balance after the last of them, and the plan shown is the rest of that same
// schedule (the same payment A, never recomputed from today). Each month: interest = balance · r,
// rounded to the currency's decimals; principal = A − interest; the last payment is whatever is left
// plus its interest, so the schedule always ends at exactly 0 (rounding never leaves a cent owed or
// overpaid).
import Decimal from "decimal.js";
import { addMonths, parseYmd } from "./calendar";

/** decimal.js with room for (1 + r)^−n over centuries of months; rounding half up like people do. */
const D = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });

export interface DebtTerms {
  /** Exact decimal string ("250000.00"). */
  amountOutstanding: string;
  /** Annual interest rate in percent ("3.25"); undefined when unknown. */
  rate?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
  /** The day `amountOutstanding` was true (YYYY-MM-DD); undefined, or a day after `today`: today. */
  amountAsOf?: string | undefined;
}

/** Why there is no payment plan: no rate, a rate of −100 % or less (the schema refuses it since;
 * a debt saved before may have one), no end date, the end date has passed (or is today), or nothing
 * is owed any more. */
export type NoPlanReason = "noRate" | "badRate" | "noEndDate" | "ended" | "paidOff";

export interface ScheduleRow {
  /** 1 … months. */
  month: number;
  /** Due date of this payment (anchor + month months, the last one at the end date at most). */
  date: string;
  payment: string;
  interest: string;
  principal: string;
  /** Outstanding after this payment. */
  balance: string;
}

export interface PaymentPlan {
  ok: true;
  /** The monthly payment (every month but possibly the last). */
  payment: string;
  /** Number of payments left. */
  months: number;
  /** Where the schedule shown starts (today, or the start date of a debt that has not started). */
  anchor: string;
  /** The balance at the anchor: the amount typed, less the payments due since it was typed. */
  principal: string;
  totalInterest: string;
  totalPaid: string;
  schedule: ScheduleRow[];
}

export type PlanResult = PaymentPlan | { ok: false; reason: NoPlanReason };

/** Plain decimal string: never exponent notation, never "-0". */
export function plain(d: Decimal): string {
  return d.isZero() ? "0" : d.toFixed();
}

/**
 * Payments left from `anchor` to `endDate`: the monthly due dates anchor + 1, + 2, … months up to
 * the end date, a last part month counting as a whole payment (due on the end date). 0 when the end
 * date is not after the anchor.
 */
export function monthsLeft(anchor: string, endDate: string): number {
  const a = parseYmd(anchor);
  const e = parseYmd(endDate);
  if (!a || !e || endDate <= anchor) return 0;
  let whole = (e.y - a.y) * 12 + (e.m - a.m);
  if (addMonths(anchor, whole) > endDate) whole--;
  return addMonths(anchor, whole) < endDate ? whole + 1 : whole;
}

/** The constant monthly payment of `principal` over `months` at `annualRate` percent, rounded to
 * `decimals` (half up). Months must be ≥ 1. */
export function annuityPayment(principal: string, annualRate: string, months: number, decimals = 2): string {
  if (!Number.isInteger(months) || months < 1) throw new RangeError(`months must be a whole number ≥ 1: ${months}`);
  const p = new D(principal);
  const r = new D(annualRate).div(1200);
  const exact = r.isZero() ? p.div(months) : p.mul(r).div(new D(1).minus(r.plus(1).pow(-months)));
  return plain(exact.toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP));
}

/** Why there is no plan, or the whole schedule from the day the amount was true (`asOf`). */
function fullSchedule(terms: DebtTerms, asOf: string, today: string, decimals: number): { reason: NoPlanReason } | { anchor: string; payment: Decimal; rows: ScheduleRow[] } {
  if (terms.rate === undefined || terms.rate === "") return { reason: "noRate" };
  // At −100 % a year or less the debt would vanish, or grow back, by itself: no plan means anything.
  if (new D(terms.rate).lte(-100)) return { reason: "badRate" };
  if (terms.endDate === undefined || terms.endDate === "") return { reason: "noEndDate" };
  const endDate = terms.endDate;
  const principal = new D(terms.amountOutstanding);
  if (principal.lte(0)) return { reason: "paidOff" };
  if (endDate <= today) return { reason: "ended" };
  const anchor = terms.startDate !== undefined && terms.startDate > asOf ? terms.startDate : asOf;
  const months = monthsLeft(anchor, endDate);
  if (months < 1) {
    // Only a debt that starts on its end date, still ahead (end ≤ start, start > today): repaid in
    // one payment on that day, with no time for interest. Never "the end date has passed".
    return { anchor, payment: principal, rows: [{ month: 1, date: endDate, payment: plain(principal), interest: "0", principal: plain(principal), balance: "0" }] };
  }
  const payment = new D(annuityPayment(terms.amountOutstanding, terms.rate, months, decimals));
  const r = new D(terms.rate).div(1200);
  const rows: ScheduleRow[] = [];
  let balance = principal;
  for (let k = 1; k <= months; k++) {
    const interest = balance.mul(r).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
    let principalPart = payment.minus(interest);
    if (k === months || principalPart.gt(balance)) principalPart = balance;
    balance = balance.minus(principalPart);
    const due = addMonths(anchor, k);
    rows.push({
      month: k,
      date: due > endDate ? endDate : due,
      payment: plain(principalPart.plus(interest)),
      interest: plain(interest),
      principal: plain(principalPart),
      balance: plain(balance),
    });
    if (balance.isZero()) break;
  }
  return { anchor, payment, rows };
}

/** The day the amount was true, for a plan viewed on `today`: never after today. */
function asOfFor(terms: DebtTerms, today: string): string {
  return terms.amountAsOf !== undefined && terms.amountAsOf !== "" && terms.amountAsOf < today ? terms.amountAsOf : today;
}

/**
 * The payment plan of a debt as of `today`: the monthly payment and the balance after each payment
 * still to come (the schedule from `amountAsOf`, its payments due by today taken as paid). Not
 * available (with the reason) without a rate or an end date, on or after the end date, or when
 * nothing is owed.
 */
export function paymentPlan(terms: DebtTerms, today: string, decimals = 2): PlanResult {
  const asOf = asOfFor(terms, today);
  const full = fullSchedule(terms, asOf, today, decimals);
  if ("reason" in full) return { ok: false, reason: full.reason };
  const paid = full.rows.filter((row) => row.date <= today);
  const left = full.rows.slice(paid.length);
  if (left.length === 0) return { ok: false, reason: "paidOff" };
  const principal = paid.length === 0 ? plain(new D(terms.amountOutstanding)) : paid.at(-1)!.balance;
  let totalInterest = new D(0);
  let totalPaid = new D(0);
  for (const row of left) {
    totalInterest = totalInterest.plus(row.interest);
    totalPaid = totalPaid.plus(row.payment);
  }
  return {
    ok: true,
    payment: plain(full.payment),
    months: left.length,
    anchor: paid.length === 0 ? full.anchor : today,
    principal,
    totalInterest: plain(totalInterest),
    totalPaid: plain(totalPaid),
    schedule: paid.length === 0 ? left : left.map((row, i) => ({ ...row, month: i + 1 })),
  };
}

/**
 * What is still owed on `date`: the amount typed, less the principal of the payments its schedule
 * (from `amountAsOf`) had due by `date`. A debt without a plan (no rate or no end date, or typed
 * after its end date) keeps the amount typed; one whose end date has passed since is repaid (0).
 * The one figure of the liabilities list and totals, the binder, the asset page and net worth.
 */
export function outstandingOn(terms: DebtTerms, date: string, decimals = 2): string {
  const asOf = asOfFor(terms, date);
  if (asOf === date) return plain(new D(terms.amountOutstanding));
  // The schedule as it was on the day the amount was typed ("today" = that day).
  const full = fullSchedule(terms, asOf, asOf, decimals);
  if ("reason" in full) return plain(new D(terms.amountOutstanding));
  let balance = plain(new D(terms.amountOutstanding));
  for (const row of full.rows) {
    if (row.date > date) break;
    balance = row.balance;
  }
  return balance;
}

export interface YearRow {
  year: number;
  /** Sums of the year's payments, interest and principal. */
  paid: string;
  interest: string;
  principal: string;
  /** Outstanding at the year's last payment. */
  balance: string;
}

/** The schedule per calendar year (the accessible table of the balance over time). */
export function yearlySchedule(schedule: readonly ScheduleRow[]): YearRow[] {
  const years = new Map<number, { paid: Decimal; interest: Decimal; principal: Decimal; balance: string }>();
  for (const row of schedule) {
    const year = Number(row.date.slice(0, 4));
    const y = years.get(year) ?? { paid: new D(0), interest: new D(0), principal: new D(0), balance: row.balance };
    y.paid = y.paid.plus(row.payment);
    y.interest = y.interest.plus(row.interest);
    y.principal = y.principal.plus(row.principal);
    y.balance = row.balance;
    years.set(year, y);
  }
  return [...years.entries()].map(([year, y]) => ({
    year,
    paid: plain(y.paid),
    interest: plain(y.interest),
    principal: plain(y.principal),
    balance: y.balance,
  }));
}
