// How old a valuation is, as people say it: "today", "3 days ago" (under a month), "5 months ago"
// (under a year), "2 years ago". Calendar arithmetic on "YYYY-MM-DD" strings (no time zones): a month
// has passed on the same day number of the next month (31 Jan → 28 Feb counts as the end of the month).
import { localToday } from "../time/localToday";

export type AgeUnit = "days" | "months" | "years";
export interface ValuationAge {
  unit: AgeUnit;
  count: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function parts(date: string): [number, number, number] | undefined {
  const m = DATE.exec(date);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/**
 * The age of a valuation date on `today`: { unit: "days", count: 0 } is today; undefined for an
 * invalid date or one after today (a future date).
 */
export function valuationAge(valuationDate: string, today: string = localToday()): ValuationAge | undefined {
  const a = parts(valuationDate);
  const b = parts(today);
  if (!a || !b || valuationDate > today) return undefined;
  const [y1, m1, d1] = a;
  const [y2, m2, d2] = b;
  // Whole months: the day number reached, or the end of a shorter month.
  let months = (y2 - y1) * 12 + (m2 - m1);
  if (d2 < d1 && d2 < daysInMonth(y2, m2)) months -= 1;
  if (months >= 12) return { unit: "years", count: Math.floor(months / 12) };
  if (months >= 1) return { unit: "months", count: months };
  const days = Math.round((Date.UTC(y2, m2 - 1, d2) - Date.UTC(y1, m1 - 1, d1)) / 86_400_000);
  return { unit: "days", count: days };
}

/** The age as text: "assets.age.today" | "assets.age.days" {count} | … | "assets.age.future". */
export function valuationAgeText(
  t: (key: string, options?: { count: number }) => string,
  valuationDate: string,
  today: string = localToday(),
): string {
  if (valuationDate > today && parts(valuationDate)) return t("assets.age.future");
  const age = valuationAge(valuationDate, today);
  if (!age) return "";
  if (age.unit === "days" && age.count === 0) return t("assets.age.today");
  return t(`assets.age.${age.unit}`, { count: age.count });
}
