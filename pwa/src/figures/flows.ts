// The cash flows tied to an asset (the synced cashFlows collection: rent, dividends, costs, loan
// payments) as the investor's flows of that asset's returns. A flow happens on its start date and
// then every step (daily 1 day, weekly 7 days, monthly 1 month, quarterly 3, annual 12; months
// counted from the start date with the day clamped to shorter months, as pwa/src/flows counts them)
// up to its end date included, and never after `until` (today): a future payment has not happened.
//
// Signs (pwa/src/money/returns.ts): an inflow (money the person receives from the asset: rent,
// dividend, interest) is money taken out of the holding, negative; an outflow (money the person
// pays for it: costs, contributions, a loan's payment tied to it) is money put in, positive.
//
// Bank accounts (the class "bank_accounts") the other way round (decision): a flow tied to an
// account is money moving through its balance, not income the holding pays out. A salary or a
// transfer received lands in the balance (the next value holds it): money put in, positive; a
// payment made from the account leaves it: money taken out, negative. With the holding's signs a
// monthly salary read as income on top of a growing balance, and the account showed returns of
// thousands of percent. Interest paid into the account counts as money put in too, so an account's
// return leaves it out: a flow does not say whether it is interest or a deposit, and a deposit is
// far the more common (a statement import creates them).
import { addDays } from "../money/dates";
import type { FigCashFlow } from "./types";

/** At most this many occurrences of one flow are counted (a daily flow of 27 years). */
export const MAX_OCCURRENCES = 10_000;

function addMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

const DAY_STEP: Record<string, number> = { daily: 1, weekly: 7 };
const MONTH_STEP: Record<string, number> = { monthly: 1, quarterly: 3, annual: 12 };

/** The dates a flow happened on, up to `until` included, oldest first. */
export function occurrenceDates(flow: Pick<FigCashFlow, "frequency" | "startDate" | "endDate">, until: string): string[] {
  const end = flow.endDate !== undefined && flow.endDate < until ? flow.endDate : until;
  if (flow.startDate > end) return [];
  if (flow.frequency === "once") return [flow.startDate];
  const out: string[] = [];
  const days = DAY_STEP[flow.frequency];
  const months = MONTH_STEP[flow.frequency];
  if (days === undefined && months === undefined) return [];
  for (let k = 0; k < MAX_OCCURRENCES; k++) {
    const d = days !== undefined ? addDays(flow.startDate, k * days) : addMonths(flow.startDate, k * months!);
    if (d > end) break;
    out.push(d);
  }
  return out;
}

/** The asset class whose flows go through the holding's own balance (see the header). */
export const BALANCE_CLASS = "bank_accounts";

/** The investor's signed amount of one occurrence (a decimal string): outflow +, inflow −; for a
 * bank account (`intoBalance`) inflow +, outflow −. */
export function investorAmount(flow: Pick<FigCashFlow, "direction" | "amount">, intoBalance = false): string {
  const negate = (flow.direction === "inflow") !== intoBalance;
  return negate ? (flow.amount.startsWith("-") ? flow.amount.slice(1) : `-${flow.amount}`) : flow.amount;
}
