// The dashboard's figures (a chunk loaded only when the workspace has assets): net worth in the base
// currency with its change first, then the distribution, diversification, history and returns. The
// charts (recharts, a big library) load afterwards in their own chunk; every chart has a table of
// the same figures beside it.
import { Link } from "@tanstack/react-router";
import { PieChart as PieChartIcon } from "lucide-react";
import { lazy, Suspense, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DimensionId, NowFigures } from "../../figures/types";
import { formatDate } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { Alert } from "../../ui/Alert";
import { Button, buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Combobox } from "../../ui/Combobox";
import { EmptyState } from "../../ui/EmptyState";
import { CURRENCY_CODES, currencyName } from "../../ui/currency";
import { Field } from "../../ui/Field";
import { NativeSelect } from "../../ui/NativeSelect";
import { Skeleton } from "../../ui/Skeleton";
import { money, percent } from "./display";
import styles from "./Dashboard.module.css";
import { ReturnsSection } from "./ReturnsSection";
import { SliceTable } from "./SliceTable";
import { ManualRates, type RatePrefill } from "./ManualRates";
import { Notices } from "./Notices";
import { useDashboardFigures, type DashboardFigures } from "./useDashboardFigures";
import { ScrollRegion } from "../../ui/ScrollRegion";

const Charts = lazy(() => import("./Charts"));

const DIVERSIFICATION: readonly DimensionId[] = ["currency", "country", "liquidity", "risk", "institution", "structure"];

export function DashboardContent() {
  const { t } = useTranslation();
  const figures = useDashboardFigures();
  const { now } = figures;
  const nw = now?.netWorth;
  const [prefill, setPrefill] = useState<RatePrefill | null>(null);
  const addRate = figures.canEdit ? (currency: string, date: string) => setPrefill({ currency, date, at: Date.now() }) : undefined;
  return (
    <>
      <Headline figures={figures} addRate={addRate} />
      {now && <Sections figures={figures} now={now} />}
      <ManualRates workspaceId={figures.workspaceId} canEdit={figures.canEdit} readOnlyReason={figures.readOnlyReasonKey ? t(figures.readOnlyReasonKey as never) : null} prefill={prefill} />
      <Notices base={figures.base} oldestRateDate={nw?.oldestRateDate ?? null} newestRateDate={nw?.newestRateDate ?? null} />
    </>
  );
}

function BasePicker({ figures }: { figures: DashboardFigures }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { base, setBase, canEdit, readOnlyReasonKey, basePending } = figures;
  const options = useMemo(() => CURRENCY_CODES.map((code) => ({ value: code, label: currencyName(code, language), hint: code })), [language]);
  const hint = !canEdit && readOnlyReasonKey ? t(readOnlyReasonKey as never) : basePending ? t("dashboard.base.pending") : t("dashboard.base.hint");
  return (
    <div className={styles.picker}>
      <Field label={t("dashboard.base.label")} hint={hint}>
        <Combobox options={options} value={base} onChange={(v) => v && setBase(v)} disabled={!canEdit} data-testid="base-currency" />
      </Field>
    </div>
  );
}

function ChangeText({ figures, period }: { figures: DashboardFigures; period: "1M" | "1Y" }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const c = figures.history?.change[period];
  if (!figures.history || !c) return <span className={styles.muted}>{t("dashboard.computing")}</span>;
  if (!c.ok) return <span className={styles.unavailable} title={t("dashboard.change.noHistory")}>{t("money.notAvailable")}</span>;
  const sign = c.change.startsWith("-") ? styles.down : c.change === "0" ? "" : styles.up;
  return (
    <span className={sign} data-testid={`change-${period}`} data-value={c.change}>
      {money(c.change, figures.base, language).replace(/^(?=[^-−])/, c.change === "0" ? "" : "+")}
      {c.percent !== undefined && ` (${percent(c.percent, language, true)})`}
      {c.incomplete && <span className={styles.warnNote}> {t("dashboard.change.incomplete")}</span>}
    </span>
  );
}

type AddRate = ((currency: string, date: string) => void) | undefined;

function Headline({ figures, addRate }: { figures: DashboardFigures; addRate: AddRate }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { now, base } = figures;
  const nw = now?.netWorth;
  return (
    <Card title={t("dashboard.netWorth.title")} data-testid="net-worth-card">
      <div className={styles.headline}>
        {nw ? (
          <p className={styles.netWorth} data-testid="net-worth" data-value={nw.total} data-base={base} data-fresh={figures.stale ? "false" : "true"}>
            {money(nw.total, base, language)}
          </p>
        ) : (
          <Skeleton shape="title" />
        )}
        {nw && figures.stale && (
          <p className={styles.muted} role="status" data-testid="figures-stale">
            {t("dashboard.stale", { time: figures.staleSince ? new Intl.DateTimeFormat(language === "es" ? "es-ES" : "en-GB", { dateStyle: "short", timeStyle: "short" }).format(figures.staleSince) : "" })}
          </p>
        )}
        {nw && (
          <dl className={styles.facts}>
            <div>
              <dt>{t("dashboard.netWorth.assets")}</dt>
              <dd data-testid="net-worth-assets">{money(nw.assets, base, language)}</dd>
            </div>
            <div>
              <dt>{t("dashboard.netWorth.liabilities")}</dt>
              <dd data-testid="net-worth-liabilities">{money(nw.liabilities, base, language)}</dd>
            </div>
            <div>
              <dt>{t("dashboard.change.1M")}</dt>
              <dd>
                <ChangeText figures={figures} period="1M" />
              </dd>
            </div>
            <div>
              <dt>{t("dashboard.change.1Y")}</dt>
              <dd>
                <ChangeText figures={figures} period="1Y" />
              </dd>
            </div>
            {nw.oldestRateDate && (
              <div>
                <dt>{t("dashboard.netWorth.rates")}</dt>
                <dd data-testid="rate-dates">
                  {nw.oldestRateDate === nw.newestRateDate
                    ? t("money.rateDate", { date: formatDate(nw.oldestRateDate, language) })
                    : t("money.rateDates", { from: formatDate(nw.oldestRateDate, language), to: formatDate(nw.newestRateDate ?? nw.oldestRateDate, language) })}
                </dd>
              </div>
            )}
          </dl>
        )}
        <BasePicker figures={figures} />
        {now && <Warnings now={now} base={base} addRate={addRate} />}
        {figures.error && <Alert tone="error">{t("dashboard.error")}</Alert>}
      </div>
    </Card>
  );
}

/** The longest list a warning shows; the rest is counted ("and 5 more"). */
const LIST_SHOWN = 20;

export function Warnings({ now, base, addRate }: { now: NowFigures; base: string; addRate: AddRate }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const nw = now.netWorth;
  return (
    <>
      {!now.hasRates && nw.missing.length > 0 && (
        <Alert tone="warning" title={t("dashboard.noRates.title")}>
          {t("dashboard.noRates.text")}
        </Alert>
      )}
      {nw.missing.length > 0 && (
        <Alert tone="warning" title={t("money.missingRates", { count: nw.missing.length })}>
          <ul className={styles.list} data-testid="missing-rates">
            {nw.missing.slice(0, LIST_SHOWN).map((m) => (
              <li key={`${m.kind}-${m.id}`} data-id={m.id}>
                {t("dashboard.missing.item", {
                  name: m.name,
                  amount: money(m.amount, m.currency, language),
                  currencies: m.missing.join(", "),
                  date: formatDate(m.date, language),
                  base,
                })}
                {addRate && m.missing[0] && (
                  <>
                    {" "}
                    <Button variant="ghost" size="sm" onClick={() => addRate(m.missing[0]!, m.date)} data-testid="add-missing-rate">
                      {t("money.manual.addFor", { currency: m.missing[0], date: formatDate(m.date, language) })}
                    </Button>
                  </>
                )}
              </li>
            ))}
            {nw.missing.length > LIST_SHOWN && <li>{t("dashboard.more", { count: nw.missing.length - LIST_SHOWN })}</li>}
          </ul>
          <p>{t("dashboard.missing.howTo")}</p>
        </Alert>
      )}
      {nw.noValue.length > 0 && (
        <Alert tone="info" title={t("dashboard.noValue.title", { count: nw.noValue.length })}>
          <ul className={styles.list}>
            {nw.noValue.slice(0, LIST_SHOWN).map((a) => (
              <li key={a.id}>
                <Link to="/assets/$assetId" params={{ assetId: a.id }}>
                  {a.name}
                </Link>
              </li>
            ))}
            {nw.noValue.length > LIST_SHOWN && <li>{t("dashboard.more", { count: nw.noValue.length - LIST_SHOWN })}</li>}
          </ul>
        </Alert>
      )}
    </>
  );
}

export function Sections({ figures, now }: { figures: DashboardFigures; now: NowFigures }) {
  const { t } = useTranslation();
  const [dimension, setDimension] = useState<DimensionId>("currency");
  const options = DIVERSIFICATION.map((d) => ({ value: d, label: t(`dashboard.dimensions.${d}`) }));
  // Assets, but none with a value yet: nothing to distribute (not an empty pie and empty tables).
  if (now.distribution.class.length === 0) {
    return (
      <Card title={t("dashboard.distribution.title")}>
        <EmptyState
          plain
          headingLevel={3}
          data-testid="distribution-empty"
          icon={<PieChartIcon size={24} />}
          title={t("dashboard.noValues.title")}
          text={t("dashboard.noValues.text")}
          action={
            <Link to="/assets" className={buttonClass({ variant: "secondary" })}>
              {t("dashboard.noValues.action")}
            </Link>
          }
        />
      </Card>
    );
  }
  return (
    <>
      <div className={styles.grid}>
        <Card title={t("dashboard.distribution.title")} description={t("dashboard.distribution.description")}>
          <Suspense fallback={<div className={styles.chart} />}>
            <Charts kind="pie" dimension="class" slices={now.distribution.class} base={figures.base} />
          </Suspense>
          <SliceTable dimension="class" slices={now.distribution.class} base={figures.base} caption={t("dashboard.distribution.by.class")} testId="slices-class" />
          <SliceTable dimension="category" slices={now.distribution.category} base={figures.base} caption={t("dashboard.distribution.by.category")} testId="slices-category" />
        </Card>
        <Card title={t("dashboard.diversification.title")} description={t("dashboard.diversification.description")}>
          <div className={styles.picker}>
            <Field label={t("dashboard.diversification.by")}>
              <NativeSelect value={dimension} onChange={(e) => setDimension(e.target.value as DimensionId)} data-testid="dimension">
                {options.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </NativeSelect>
            </Field>
          </div>
          <Suspense fallback={<div className={styles.chart} />}>
            <Charts kind="bar" dimension={dimension} slices={now.distribution[dimension]} base={figures.base} />
          </Suspense>
          <SliceTable dimension={dimension} slices={now.distribution[dimension]} base={figures.base} caption={t("dashboard.diversification.caption", { by: t(`dashboard.dimensions.${dimension}`) })} testId="slices-diversification" />
        </Card>
      </div>
      <HistoryCard figures={figures} />
      <ReturnsSection figures={figures} />
    </>
  );
}

function HistoryCard({ figures }: { figures: DashboardFigures }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const series = figures.history?.series;
  return (
    <Card title={t("dashboard.history.title")} description={t("dashboard.history.description")}>
      {!series ? (
        <p className={styles.muted}>{t("dashboard.computing")}</p>
      ) : (
        <>
          <Suspense fallback={<div className={styles.chart} />}>
            <Charts kind="line" series={series} base={figures.base} />
          </Suspense>
          {series.some((p) => p.missing > 0) && (
            <p className={styles.muted} data-testid="history-incomplete">
              {t("dashboard.history.incomplete")}
            </p>
          )}
          <ScrollRegion className={styles.tableWrap}>
            <table className={styles.table} data-testid="history-table">
              <caption className={styles.caption}>{t("dashboard.history.caption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("dashboard.history.date")}</th>
                  <th scope="col" className={styles.num}>{t("dashboard.table.netWorth", { currency: figures.base })}</th>
                </tr>
              </thead>
              <tbody>
                {series.map((p) => (
                  <tr key={p.date}>
                    <th scope="row">{formatDate(p.date, language)}</th>
                    <td className={styles.num}>
                      {money(p.total, figures.base, language)}
                      {p.missing > 0 && <span className={styles.warnNote}> {t("dashboard.table.missing", { count: p.missing })}</span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </Card>
  );
}
