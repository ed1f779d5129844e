// Calendar dates as people type them, to and from the "YYYY-MM-DD" strings the app stores.
// Both languages write the day first (es-ES and en-GB): "31/12/2024". Accepted: day, month and
// year separated by "/", "-", "." or spaces ("31/12/2024", "1-2-2024", "31.12.2024"), eight
// digits "31122024", or an ISO date "2024-12-31" (a paste from elsewhere). Years have four digits
// (a two-digit year is ambiguous) and lie in 1000–2999, like the shared schema's dates.

export type DateParseResult = { ok: true; value: string } | { ok: false; error: { key: "ui.date.invalid" } };

const INVALID: DateParseResult = { ok: false, error: { key: "ui.date.invalid" } };

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function build(year: number, month: number, day: number): DateParseResult {
  if (year < 1000 || year > 2999 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return INVALID;
  const pad = (n: number, width: number) => String(n).padStart(width, "0");
  return { ok: true, value: `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` };
}

/** Reads a typed date; "" stays "" (empty field). */
export function parseDateText(text: string): DateParseResult | { ok: true; value: "" } {
  const s = text.trim();
  if (s === "") return { ok: true, value: "" };
  let m = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})$/.exec(s);
  if (m) return build(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^([0-9]{1,2})\s*[/.\-\s]\s*([0-9]{1,2})\s*[/.\-\s]\s*([0-9]{4})$/.exec(s);
  if (m) return build(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^([0-9]{2})([0-9]{2})([0-9]{4})$/.exec(s);
  if (m) return build(Number(m[3]), Number(m[2]), Number(m[1]));
  return INVALID;
}

/** "2024-12-31" → "31/12/2024" (both languages); anything else comes back unchanged. */
export function formatDateText(value: string): string {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(value);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : value;
}
