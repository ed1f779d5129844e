// What an import makes of a statement: the end-of-day balances (each becomes a dated valuation of
// the asset) and the recurring movements (each may become a monthly cash flow).
import Decimal from "decimal.js";
import { canon, daysBetween, squash } from "./common";
import type { Movement, Statement } from "./types";

export interface DayBalance {
  date: string;
  /** Signed: a negative balance (overdraft) cannot be a valuation and is reported instead. */
  amount: string;
  /** The movements booked that day (their ids): remembered with the valuation. */
  movementIds: string[];
}

function byDate(movements: readonly Movement[]): Movement[] {
  // Stable: movements of one day keep the file's order.
  return movements.map((m, i) => ({ m, i })).sort((a, b) => (a.m.bookingDate < b.m.bookingDate ? -1 : a.m.bookingDate > b.m.bookingDate ? 1 : a.i - b.i)).map((x) => x.m);
}

/**
 * The balance at the end of each day with movements, and the closing balance on its date when no
 * movement falls on it. Counted forward from the opening balance, or back from the closing one; a
 * statement without either (a CSV without a balance column) has none.
 */
export function dailyBalances(statement: Statement): DayBalance[] {
  const moves = byDate(statement.movements);
  const total = moves.reduce((acc, m) => acc.plus(m.amount), new Decimal(0));
  let running: Decimal;
  if (statement.opening) running = new Decimal(statement.opening.amount);
  else if (statement.closing) running = new Decimal(statement.closing.amount).minus(total);
  else return [];
  const days: DayBalance[] = [];
  for (const m of moves) {
    running = running.plus(m.amount);
    const last = days[days.length - 1];
    if (last && last.date === m.bookingDate) {
      last.amount = canon(running);
      last.movementIds.push(m.id);
    } else {
      days.push({ date: m.bookingDate, amount: canon(running), movementIds: [m.id] });
    }
  }
  const closing = statement.closing;
  const last = days[days.length - 1];
  if (closing && (!last || closing.date > last.date)) days.push({ date: closing.date, amount: canon(closing.amount), movementIds: [] });
  return days;
}

export interface RecurringMovement {
  /** The description of its first occurrence (the flow's name). */
  name: string;
  direction: "inflow" | "outflow";
  /** Positive amount of each occurrence. */
  amount: string;
  startDate: string;
  lastDate: string;
  count: number;
  movementIds: string[];
}

/** Days between two occurrences that still read as "monthly" (a 31-day month, weekends, holidays). */
export const MONTHLY_MIN_DAYS = 26;
export const MONTHLY_MAX_DAYS = 35;

/** How descriptions are compared: lower case, digits as "#" (a receipt number or month changes
 * every time: "RECIBO LUZ 01/2025" and "RECIBO LUZ 02/2025" are one payee), spaces squashed. */
export function descriptionKey(description: string): string {
  return squash(description.toLowerCase().replace(/\d+/g, "#"));
}

/**
 * Movements that repeat monthly: the same description (descriptionKey) and exactly the same
 * amount, at least twice, every gap between consecutive occurrences 26 to 35 days. Each becomes a
 * candidate monthly cash flow starting on its first occurrence.
 */
export function recurringMovements(movements: readonly Movement[]): RecurringMovement[] {
  const groups = new Map<string, Movement[]>();
  for (const m of byDate(movements)) {
    const key = `${descriptionKey(m.description)}\u001f${canon(m.amount)}`;
    if (descriptionKey(m.description) === "" || new Decimal(m.amount).isZero()) continue;
    const g = groups.get(key);
    if (g) g.push(m);
    else groups.set(key, [m]);
  }
  const out: RecurringMovement[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    let monthly = true;
    for (let i = 1; i < g.length && monthly; i++) {
      const gap = daysBetween((g[i - 1] as Movement).bookingDate, (g[i] as Movement).bookingDate);
      monthly = gap >= MONTHLY_MIN_DAYS && gap <= MONTHLY_MAX_DAYS;
    }
    if (!monthly) continue;
    const first = g[0] as Movement;
    const amount = new Decimal(first.amount);
    out.push({
      name: squash(first.description).slice(0, 140),
      direction: amount.isNegative() ? "outflow" : "inflow",
      amount: canon(amount.abs()),
      startDate: first.bookingDate,
      lastDate: (g[g.length - 1] as Movement).bookingDate,
      count: g.length,
      movementIds: g.map((m) => m.id),
    });
  }
  return out.sort((a, b) => (a.startDate < b.startDate ? -1 : a.startDate > b.startDate ? 1 : a.name.localeCompare(b.name)));
}

/** The statement's period: its opening and closing dates, else its first and last movement. */
export function period(statement: Statement): { from?: string; to?: string } {
  const dates = statement.movements.map((m) => m.bookingDate).sort();
  const from = statement.opening?.date ?? dates[0];
  const to = statement.closing?.date ?? dates[dates.length - 1];
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
