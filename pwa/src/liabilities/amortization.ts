// A debt's monthly payment and its outstanding balance over time (a French, constant-payment
// amortization), in exact decimals (decimal.js, never binary floats).
//
//   monthly rate   r = annual rate / 12 / 100
//   months left    n = whole months from the anchor to the end date, a part month counting as one
//                      (anchor = today, or the start date when the debt has not started yet)
//   payment        A = P · r / (1 − (1 + r)^−n)     (r = 0: A = P / n)
//
// P is the amount outstanding today. Each month: interest = balance · r, rounded to the currency's
// decimals; principal = A − interest; the last payment is whatever is left plus its interest, so the
// schedule always ends at exactly 0 (rounding never leaves a cent owed or overpaid).
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
  /** Where the schedule starts (today, or the start date of a debt that has not started). */
  anchor: string;
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

/**
 * The payment plan of a debt as of `today`: the monthly payment and the balance after each payment.
 * Not available (with the reason) without a rate or an end date, after the end date, or when
 * nothing is owed.
 */
export function paymentPlan(terms: DebtTerms, today: string, decimals = 2): PlanResult {
  if (terms.rate === undefined || terms.rate === "") return { ok: false, reason: "noRate" };
  // At −100 % a year or less the debt would vanish, or grow back, by itself: no plan means anything.
  if (new D(terms.rate).lte(-100)) return { ok: false, reason: "badRate" };
  if (terms.endDate === undefined || terms.endDate === "") return { ok: false, reason: "noEndDate" };
  const principal = new D(terms.amountOutstanding);
  if (principal.lte(0)) return { ok: false, reason: "paidOff" };
  const anchor = terms.startDate !== undefined && terms.startDate > today ? terms.startDate : today;
  const months = monthsLeft(anchor, terms.endDate);
  if (months < 1) return { ok: false, reason: "ended" };
  const payment = new D(annuityPayment(terms.amountOutstanding, terms.rate, months, decimals));
  const r = new D(terms.rate).div(1200);
  const schedule: ScheduleRow[] = [];
  let balance = principal;
  let totalInterest = new D(0);
  let totalPaid = new D(0);
  for (let k = 1; k <= months; k++) {
    const interest = balance.mul(r).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP);
    let principalPart = payment.minus(interest);
    if (k === months || principalPart.gt(balance)) principalPart = balance;
    const paid = principalPart.plus(interest);
    balance = balance.minus(principalPart);
    totalInterest = totalInterest.plus(interest);
    totalPaid = totalPaid.plus(paid);
    const due = addMonths(anchor, k);
    schedule.push({
      month: k,
      date: due > terms.endDate ? terms.endDate : due,
      payment: plain(paid),
      interest: plain(interest),
      principal: plain(principalPart),
      balance: plain(balance),
    });
    if (balance.isZero()) break;
  }
  return {
    ok: true,
    payment: plain(payment),
    months: schedule.length,
    anchor,
    principal: plain(principal),
    totalInterest: plain(totalInterest),
    totalPaid: plain(totalPaid),
    schedule,
  };
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
