// A table of slices (the accessible alternative of a distribution chart, shown to everyone): name
// (a link to the matching asset list), value in the base currency, share, number of assets.
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { DimensionId, Slice } from "../../figures/types";
import { useLanguage } from "../../i18n/useLanguage";
import { money, percent, sliceLink, uncounted, useSliceLabel } from "./display";
import styles from "./Dashboard.module.css";
import { ScrollRegion } from "../../ui/ScrollRegion";

export function SliceTable({ dimension, slices, base, caption, net = false, testId }: { dimension: DimensionId; slices: readonly Slice[]; base: string; caption: string; net?: boolean; testId?: string }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const label = useSliceLabel();
  return (
    <ScrollRegion className={styles.tableWrap}>
      <table className={styles.table} data-testid={testId} data-dimension={dimension}>
        <caption className={styles.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t(`dashboard.dimensions.${dimension}`)}</th>
            <th scope="col" className={styles.num}>{t("dashboard.table.value", { currency: base })}</th>
            {net && <th scope="col" className={styles.num}>{t("dashboard.table.net", { currency: base })}</th>}
            <th scope="col" className={styles.num}>{t("dashboard.table.share")}</th>
            <th scope="col" className={styles.num}>{t("dashboard.table.count")}</th>
          </tr>
        </thead>
        <tbody>
          {slices.map((s) => {
            const name = label(dimension, s);
            const to = sliceLink(dimension, s);
            // No asset of the group has a rate: its value is unknown, never "0,00 €".
            const unknown = uncounted(s);
            const amount = (value: string) => (unknown ? <td className={`${styles.num} ${styles.unavailable}`}>{t("money.notAvailable")}</td> : <td className={styles.num}>{money(value, base, language)}</td>);
            return (
              <tr key={s.key} data-key={s.key} data-value={s.value}>
                <th scope="row">{to ? <Link {...to}>{name}</Link> : name}</th>
                {amount(s.value)}
                {net && amount(s.net)}
                <td className={styles.num}>{s.share !== undefined ? percent(s.share, language) : "—"}</td>
                <td className={styles.num}>
                  {s.count}
                  {s.missing > 0 && <span className={styles.warnNote}> {t("dashboard.table.missing", { count: s.missing })}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
