// Helpers every format shares: exact amounts, dates, masking, the movement hash, line splitting.
import Decimal from "decimal.js";
import { StatementError, type Movement } from "./types";

/** Canonical decimal text: no exponent, no trailing zeros ("-12.5", "0"). */
export function canon(d: Decimal.Value): string {
  const v = new Decimal(d);
  return v.isZero() ? "0" : v.toFixed();
}

export function sum(values: readonly string[]): string {
  return canon(values.reduce((acc, v) => acc.plus(v), new Decimal(0)));
}

/** An amount with `decimals` implied decimals ("00000000012345" → "123.45"), negative when `debit`. */
export function impliedDecimal(digits: string, decimals: number, debit: boolean): string {
  const v = new Decimal(digits).dividedBy(new Decimal(10).pow(decimals));
  return canon(debit ? v.negated() : v);
}

/** A plain decimal number text ("-1234.5", "+12", ".5") as canonical decimal, or undefined. */
export function plainDecimal(text: string): string | undefined {
  const t = text.trim();
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(t)) return undefined;
  return canon(t);
}

export function isValidDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
}

export function isoDate(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** AAMMDD (Norma 43): years 00–79 are 2000–2079, 80–99 are 1980–1999. */
export function yymmdd(text: string): string | undefined {
  if (!/^\d{6}$/.test(text)) return undefined;
  const yy = Number(text.slice(0, 2));
  const y = yy < 80 ? 2000 + yy : 1900 + yy;
  const m = Number(text.slice(2, 4));
  const d = Number(text.slice(4, 6));
  return isValidDate(y, m, d) ? isoDate(y, m, d) : undefined;
}

/** YYYY-MM-DD at the start of an ISO date or date-time, or undefined. */
export function isoPrefix(text: string): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return isValidDate(y, mo, d) ? isoDate(y, mo, d) : undefined;
}

export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** All but the first and last four characters hidden ("ES91 •••• 1332"); short ones keep the last four. */
export function maskAccount(account: string): string {
  const a = account.replace(/\s+/g, "");
  if (a.length <= 4) return a;
  if (a.length <= 8) return `•••• ${a.slice(-4)}`;
  return `${a.slice(0, 4)} •••• ${a.slice(-4)}`;
}

/** 64-bit FNV-1a of a text's UTF-16 code units, 16 hex digits. Stable across devices and releases. */
export function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = 0xffffffffffffffffn;
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i));
    h = (h * prime) & mask;
  }
  return h.toString(16).padStart(16, "0");
}

/** Whitespace collapsed and trimmed: how descriptions are compared and hashed. */
export function squash(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

type Unhashed = Omit<Movement, "id">;

/** Gives each movement its id: the hash of account, booking date, amount, description and
 * reference, plus the ordinal among identical ones in the file (two equal coffees on one day are two
 * movements). */
export function withIds(account: string, movements: readonly Unhashed[]): Movement[] {
  const seen = new Map<string, number>();
  return movements.map((m) => {
    const key = [account.replace(/\s+/g, "").toUpperCase(), m.bookingDate, canon(m.amount), squash(m.description).toLowerCase(), squash(m.reference ?? "").toLowerCase()].join("\u001f");
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    return { id: fnv1a64(`${key}\u001f${n}`), ...m };
  });
}

/** The file's lines without their line ends (CRLF, LF or CR). */
export function lines(text: string): string[] {
  const out = text.split(/\r\n|\n|\r/);
  if (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/** The file's text without a byte-order mark. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Refuses a statement whose opening balance plus its movements is not its closing balance. */
export function checkBalances(opening: string | undefined, closing: string | undefined, movements: readonly { amount: string }[], line: number): void {
  if (opening === undefined || closing === undefined) return;
  const expected = new Decimal(opening).plus(sum(movements.map((m) => m.amount)));
  if (!expected.equals(closing)) {
    throw new StatementError(line, "statementImport.errors.balanceMismatch", { opening, closing, expected: canon(expected) });
  }
}

/** ISO 4217 numeric codes (Norma 43 uses them) of the currencies Spanish banks keep accounts in. */
export const NUMERIC_CURRENCIES: Readonly<Record<string, string>> = {
  "978": "EUR", "840": "USD", "826": "GBP", "756": "CHF", "392": "JPY", "752": "SEK", "578": "NOK",
  "208": "DKK", "124": "CAD", "036": "AUD", "484": "MXN", "032": "ARS", "152": "CLP", "170": "COP",
  "604": "PEN", "986": "BRL", "156": "CNY", "985": "PLN", "203": "CZK", "348": "HUF", "946": "RON",
  "949": "TRY", "504": "MAD", "858": "UYU", "344": "HKD", "702": "SGD", "554": "NZD", "710": "ZAR",
};

/** Spanish bank codes (the first four digits of a CCC, digits 5–8 of an IBAN) of the largest banks,
 * to name the institution of a Norma 43 or OFX file; any other code is shown as it is. */
export const SPANISH_BANKS: Readonly<Record<string, string>> = {
  "0049": "Banco Santander", "0075": "Banco Santander", "0081": "Banco Sabadell", "0128": "Bankinter",
  "0182": "BBVA", "0487": "Banco Mare Nostrum", "1465": "ING", "2038": "CaixaBank", "2080": "Abanca",
  "2085": "Ibercaja", "2095": "Kutxabank", "2100": "CaixaBank", "2103": "Unicaja", "3058": "Cajamar",
  "0073": "Openbank", "0239": "EVO Banco", "1491": "Triodos Bank", "0019": "Deutsche Bank", "0238": "Banco Pichincha",
};

export function bankName(code: string | undefined): string | undefined {
  return code === undefined ? undefined : (SPANISH_BANKS[code] ?? code);
}
