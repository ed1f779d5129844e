// Today on this device's calendar, the one place it is worked out: the reader's day, not UTC's
// (00:30 on 1 March in Madrid is still 28 February in UTC). Screens that must follow midnight read it
// through liabilities/useToday.
/** Today (or `now`'s day) on this device's calendar, as "YYYY-MM-DD". */
export function localToday(now: Date = new Date()): string {
  const y = String(now.getFullYear()).padStart(4, "0");
  const m = String(now.getMonth() + 1).padStart(2, "0");
  const d = String(now.getDate()).padStart(2, "0");
  return `${y}-${m}-${d}`;
}
