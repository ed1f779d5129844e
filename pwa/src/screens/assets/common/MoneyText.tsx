// Amounts, totals and percentages in the reader's format, from exact decimal strings.
import type { MoneyTotals } from "../../../assets/money";
import { formatMoney, formatPercent } from "../../../i18n/format";
import { useLanguage } from "../../../i18n/useLanguage";
import styles from "./common.module.css";

/** Shown for a missing amount (a symbol, the same in both languages). */
export const NO_VALUE = "—";

/** "1.234,50 €" (es) / "€1,234.50" (en); "—" without an amount. */
export function MoneyText({ amount, currency, className }: { amount: string | undefined; currency: string; className?: string }) {
  const { language } = useLanguage();
  let text: string;
  try {
    text = amount === undefined || amount === "" ? NO_VALUE : formatMoney(amount, currency, language);
  } catch {
    text = `${amount} ${currency}`;
  }
  return (
    <span className={className} data-amount={amount ?? ""} data-currency={currency}>
      {text}
    </span>
  );
}

/** One amount per currency (exchange rates are not applied: see pwa/src/assets/money.ts); "—" when empty. */
export function MoneyTotalsText({ totals, className }: { totals: MoneyTotals; className?: string }) {
  if (totals.length === 0) return <span className={className}>{NO_VALUE}</span>;
  return (
    <span className={[styles.totals, className].filter(Boolean).join(" ")}>
      {totals.map((total) => (
        <MoneyText key={total.currency} amount={total.amount} currency={total.currency} />
      ))}
    </span>
  );
}

/** "12,5 %" (es) / "12.5%" (en); "—" without a value. */
export function PercentText({ value, className }: { value: string | undefined; className?: string }) {
  const { language } = useLanguage();
  return <span className={className}>{value === undefined ? NO_VALUE : formatPercent(value, language, { maximumFractionDigits: 4 })}</span>;
}
