// A projection as a table: one row per period and currency (money in, out and net), a period with no
// movement says so. Amounts in different currencies are never added together.
import { useTranslation } from "react-i18next";
import type { PeriodTotals } from "../../flows/projection";
import { useFormatters } from "../../i18n/useFormatters";
import styles from "../liabilities/liabilities.module.css";

interface Props {
  periods: readonly PeriodTotals[];
  kind: "month" | "year";
  caption: string;
  testId: string;
}

export function ProjectionTable({ periods, kind, caption, testId }: Props) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const name = (p: PeriodTotals) => (kind === "month" ? fmt.date(p.from, { month: "long", year: "numeric" }) : p.period);
  return (
    <div className={styles.tableWrap} role="region" aria-label={caption} tabIndex={0}>
      <table className={styles.table} data-testid={testId}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("flows.projection.period")}</th>
            <th scope="col">{t("flows.projection.currency")}</th>
            <th scope="col" className={styles.num}>
              {t("flows.projection.inflow")}
            </th>
            <th scope="col" className={styles.num}>
              {t("flows.projection.outflow")}
            </th>
            <th scope="col" className={styles.num}>
              {t("flows.projection.net")}
            </th>
          </tr>
        </thead>
        <tbody>
          {periods.flatMap((p) =>
            p.lines.length === 0
              ? [
                  <tr key={p.period} data-testid="projection-row" data-period={p.period}>
                    <th scope="row">{name(p)}</th>
                    <td colSpan={4} className={styles.muted}>
                      {t("flows.projection.none")}
                    </td>
                  </tr>,
                ]
              : p.lines.map((line) => (
                  <tr key={`${p.period}-${line.currency}`} data-testid="projection-row" data-period={p.period} data-currency={line.currency}>
                    <th scope="row">{name(p)}</th>
                    <td>{line.currency}</td>
                    <td className={styles.num}>{fmt.money(line.inflow, line.currency)}</td>
                    <td className={styles.num}>{fmt.money(line.outflow, line.currency)}</td>
                    <td className={styles.num} data-testid="projection-net">
                      {fmt.money(line.net, line.currency)}
                    </td>
                  </tr>
                )),
          )}
        </tbody>
      </table>
    </div>
  );
}
