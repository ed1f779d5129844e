// Calendar dates as "YYYY-MM-DD" strings (their string order is their date order) and whole-day
// differences between them, computed in UTC so no time zone or summer time moves a day.

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;

/** Whether s is a real calendar day written YYYY-MM-DD. */
export function isIsoDate(s: string): boolean {
  const m = DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(Date.UTC(y, mo - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d;
}

function dayNumber(s: string): number {
  const m = DATE.exec(s);
  if (!m) throw new RangeError(`not a date: ${s}`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) / 86_400_000;
}

/** Days from a to b (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return dayNumber(b) - dayNumber(a);
}

/** The date n days after s. */
export function addDays(s: string, n: number): string {
  return new Date((dayNumber(s) + n) * 86_400_000).toISOString().slice(0, 10);
}
