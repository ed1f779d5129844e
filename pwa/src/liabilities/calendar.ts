// Calendar arithmetic on "YYYY-MM-DD" strings (no time zones, no Date objects for the dates
// themselves): adding months keeps the day number, clamped to the end of a shorter month
// (31 Jan + 1 month = 28 or 29 Feb; 31 Jan + 2 months = 31 Mar: always counted from the anchor).

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface Ymd {
  y: number;
  m: number;
  d: number;
}

export function parseYmd(date: string): Ymd | undefined {
  const m = DATE.exec(date);
  if (!m) return undefined;
  const ymd = { y: Number(m[1]), m: Number(m[2]), d: Number(m[3]) };
  if (ymd.m < 1 || ymd.m > 12 || ymd.d < 1 || ymd.d > daysInMonth(ymd.y, ymd.m)) return undefined;
  return ymd;
}

export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function formatYmd({ y, m, d }: Ymd): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** `date` plus `months` calendar months (negative goes back), the day clamped to the month's end. */
export function addMonths(date: string, months: number): string {
  const p = parseYmd(date);
  if (!p) throw new RangeError(`not a date: ${JSON.stringify(date)}`);
  const index = p.y * 12 + (p.m - 1) + months;
  const y = Math.floor(index / 12);
  const m = index - y * 12 + 1;
  return formatYmd({ y, m, d: Math.min(p.d, daysInMonth(y, m)) });
}

/** Days since 1970-01-01 (UTC calendar), for day-step arithmetic. */
export function dayNumber(date: string): number {
  const p = parseYmd(date);
  if (!p) throw new RangeError(`not a date: ${JSON.stringify(date)}`);
  return Math.round(Date.UTC(p.y, p.m - 1, p.d) / 86_400_000);
}

export function fromDayNumber(day: number): string {
  const d = new Date(day * 86_400_000);
  return formatYmd({ y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() });
}

/** The first day of the month of `date` ("2025-03-17" → "2025-03-01"). */
export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

/** The first day of the year of `date`. */
export function yearStart(date: string): string {
  return `${date.slice(0, 4)}-01-01`;
}
