// Sums of decimal strings per currency, exact (BigInt units; decimal.js for anything unusual), never
// floats. Exchange rates are issue 12's work, so amounts in different currencies are never added
// together: a total is one line per currency.
import Decimal from "decimal.js";

export interface MoneyTotal {
  currency: string;
  /** Exact decimal string ("1234.5"), no grouping, "." as separator. */
  amount: string;
}
export type MoneyTotals = MoneyTotal[];

const PLAIN = /^([-+]?)([0-9]+)(?:\.([0-9]+))?$/;

/** An exact running sum in integer units of 10^-scale (BigInt: fast on 10,000 rows, never a float). */
interface Sum {
  units: bigint;
  scale: number;
  /** Set when an amount was not a plain decimal (exponent…): then decimal.js adds the rest. */
  slow?: Decimal;
}

function add(sum: Sum, amount: string): void {
  const m = PLAIN.exec(amount);
  if (!m || sum.slow) {
    sum.slow = (sum.slow ?? new Decimal(toText(sum))).plus(amount);
    return;
  }
  const fraction = m[3] ?? "";
  if (fraction.length > sum.scale) {
    sum.units *= 10n ** BigInt(fraction.length - sum.scale);
    sum.scale = fraction.length;
  }
  const units = BigInt(m[2]! + fraction.padEnd(sum.scale, "0"));
  sum.units += m[1] === "-" ? -units : units;
}

function toText(sum: Sum): string {
  if (sum.slow) return decimalString(sum.slow);
  const negative = sum.units < 0n;
  const digits = (negative ? -sum.units : sum.units).toString().padStart(sum.scale + 1, "0");
  const whole = digits.slice(0, digits.length - sum.scale);
  const fraction = digits.slice(digits.length - sum.scale).replace(/0+$/, "");
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && text !== "0" ? `-${text}` : text;
}

/** Adds the amounts per currency (items without an amount are skipped); sorted by currency code. */
export function sumByCurrency(items: Iterable<{ amount: string | undefined; currency: string }>): MoneyTotals {
  const sums = new Map<string, Sum>();
  for (const { amount, currency } of items) {
    if (amount === undefined || amount === "") continue;
    let sum = sums.get(currency);
    if (!sum) {
      sum = { units: 0n, scale: 0 };
      sums.set(currency, sum);
    }
    add(sum, amount);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([currency, sum]) => ({ currency, amount: toText(sum) }));
}

/** Adds totals together (e.g. the groups' totals into a grand total). */
export function addTotals(...lists: MoneyTotals[]): MoneyTotals {
  return sumByCurrency(lists.flat());
}

/** A Decimal as a plain decimal string: never exponent notation, no trailing zeros, never "-0". */
export function decimalString(d: Decimal): string {
  if (d.isZero()) return "0";
  return d.toFixed();
}

/** a − b per currency (net equity = value − debts): every currency of either side. */
export function subtractTotals(a: MoneyTotals, b: MoneyTotals): MoneyTotals {
  return sumByCurrency([...a, ...b.map((t) => ({ currency: t.currency, amount: new Decimal(t.amount).neg().toFixed() }))]);
}
