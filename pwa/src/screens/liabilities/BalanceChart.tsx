// The outstanding balance after each payment, as an area chart (recharts, loaded with this file
// only). Hidden from assistive technology: the yearly table beside it holds the same figures.
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useFormatters } from "../../i18n/useFormatters";
import styles from "./liabilities.module.css";

export interface BalancePoint {
  date: string;
  /** A number for drawing only; every figure shown as text comes from the exact decimal strings. */
  balance: number;
}

export function BalanceChart({ points, currency }: { points: readonly BalancePoint[]; currency: string }) {
  const fmt = useFormatters();
  return (
    <div aria-hidden="true" className={styles.chartBox}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points as BalancePoint[]} margin={{ top: 8, right: 16, bottom: 0, left: 8 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="date" tickFormatter={(d: string) => fmt.date(d, { month: "short", year: "2-digit" })} stroke="var(--text-secondary)" fontSize={12} minTickGap={24} />
          <YAxis width={72} tickFormatter={(v: number) => fmt.number(v, { notation: "compact", maximumFractionDigits: 1 })} stroke="var(--text-secondary)" fontSize={12} />
          <Tooltip
            formatter={(v) => fmt.money(String(v), currency)}
            labelFormatter={(d) => fmt.date(String(d))}
            contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", color: "var(--text)" }}
          />
          <Area type="monotone" dataKey="balance" stroke="var(--accent)" fill="var(--accent-soft)" strokeWidth={2} isAnimationActive={false} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
