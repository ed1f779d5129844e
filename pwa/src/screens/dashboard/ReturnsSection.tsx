// Investment returns per class, legal structure and asset for 1M, YTD, 1Y and since the start:
// time-weighted in the base currency and in the asset's own currency (or at constant exchange rates
// for a group), the currency effect, simple and money-weighted. "Not available" with its reason,
// never 0 %.
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import type { AssetClass } from "@patrimonio/shared-schema";
import { useAssetLabels } from "../../assets/useAssetLabels";
import type { ReturnFigure, ReturnRow } from "../../figures/types";
import { PERIODS, type Period } from "../../money/periods";
import { Card } from "../../ui/Card";
import { Field } from "../../ui/Field";
import { NativeSelect } from "../../ui/NativeSelect";
import { useReturnText } from "./display";
import styles from "./Dashboard.module.css";
import type { DashboardFigures } from "./useDashboardFigures";
import { ScrollRegion } from "../../ui/ScrollRegion";

const Charts = lazy(() => import("./Charts"));

function Cell({ f }: { f: ReturnFigure }) {
  const text = useReturnText();
  const r = text(f);
  return (
    <td className={`${styles.num} ${r.ok ? "" : styles.unavailable}`} title={r.title} data-value={f.ok ? f.value : ""} data-reason={f.ok ? "" : f.reason}>
      {r.text}
      {r.title && <span className={styles.srOnly}> ({r.title})</span>}
    </td>
  );
}

export function ReturnsSection({ figures }: { figures: DashboardFigures }) {
  const { t } = useTranslation();
  const { classLabel } = useAssetLabels();
  const [period, setPeriod] = useState<Period>("1Y");
  const rows = figures.history?.returns;
  const name = (r: ReturnRow) => (r.kind === "class" ? classLabel(r.name as AssetClass) : r.name);
  const groups: { kind: ReturnRow["kind"]; title: string }[] = [
    { kind: "class", title: t("dashboard.returns.byClass") },
    { kind: "structure", title: t("dashboard.returns.byStructure") },
    { kind: "asset", title: t("dashboard.returns.byAsset") },
  ];
  return (
    <Card title={t("dashboard.returns.title")} description={t("dashboard.returns.description", { base: figures.base })}>
      <div className={styles.picker}>
        <Field label={t("dashboard.returns.period")}>
          <NativeSelect value={period} onChange={(e) => setPeriod(e.target.value as Period)} data-testid="period">
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {t(`money.periods.${p}`)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </div>
      {!rows ? (
        <p className={styles.muted}>{t("dashboard.computing")}</p>
      ) : (
        <>
          <Suspense fallback={<div className={styles.chart} />}>
            <Charts kind="returns" rows={rows.filter((r) => r.kind === "class").map((r) => ({ name: name(r), figure: r.periods[period].base.twr }))} />
          </Suspense>
          {groups.map((g) => {
            const list = rows.filter((r) => r.kind === g.kind);
            if (list.length === 0) return g.kind === "asset" && !figures.history?.assetReturns ? <p key={g.kind} className={styles.muted}>{t("dashboard.returns.tooManyAssets")}</p> : null;
            return (
              <ScrollRegion className={styles.tableWrap} key={g.kind}>
                <table className={styles.table} data-testid={`returns-${g.kind}`}>
                  <caption className={styles.caption}>
                    {g.title} · {t(`money.periods.${period}`)}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("dashboard.returns.holding")}</th>
                      <th scope="col" className={styles.num}>{t("dashboard.returns.twrBase", { currency: figures.base })}</th>
                      <th scope="col" className={styles.num}>{g.kind === "asset" ? t("dashboard.returns.twrLocal") : t("dashboard.returns.twrConstant")}</th>
                      <th scope="col" className={styles.num}>{t("money.fxEffect.effect")}</th>
                      <th scope="col" className={styles.num}>{t("money.returns.simple")}</th>
                      <th scope="col" className={styles.num}>{t("money.returns.moneyWeighted")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.map((r) => {
                      const p = r.periods[period];
                      return (
                        <tr key={r.id} data-id={r.id}>
                          <th scope="row">
                            {name(r)}
                            {r.kind === "asset" && <span className={styles.muted}> ({r.currency})</span>}
                          </th>
                          <Cell f={p.base.twr} />
                          <Cell f={p.local.twr} />
                          <Cell f={p.fx} />
                          <Cell f={p.base.simple} />
                          <Cell f={p.base.mwr} />
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </ScrollRegion>
            );
          })}
          <p className={styles.muted}>{t("dashboard.returns.legend")}</p>
        </>
      )}
    </Card>
  );
}
