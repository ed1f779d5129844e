// "/map": the wealth map. A world map coloured by the net value (the person's share of the assets
// minus the debts tied to them, in the base currency) of each tax-location country, with a legend;
// choosing a country (click, Enter or Space on the map, or its button in the table) lists its assets.
// Assets without tax registration or without a country are listed apart. The map is a lazy chunk of
// this route only; the table shows the same figures.
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { Map as MapIcon } from "lucide-react";
import { lazy, Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import type { AssetClass } from "@patrimonio/shared-schema";
import { isDisposed } from "../../assets/disposal";
import type { AssetRec } from "../../assets/hooks";
import { useAssetLabels } from "../../assets/useAssetLabels";
import { Dec } from "../../money/decimal";
import { useLanguage } from "../../i18n/useLanguage";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { EmptyState } from "../../ui/EmptyState";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import { countryName, money, uncounted } from "../dashboard/display";
import dash from "../dashboard/Dashboard.module.css";
import { useDashboardFigures } from "../dashboard/useDashboardFigures";
import type { Slice } from "../../figures/types";
import type { Language } from "../../i18n/i18n";
import { NO_RATE_PATTERN, type CountryFill } from "./worldMapFill";
import styles from "./WealthMap.module.css";
import { ScrollRegion } from "../../ui/ScrollRegion";

const WorldMap = lazy(() => import("./WorldMap"));
const route = getRouteApi("/app/map");

/** Sequential blues for positive net values (light → dark), one colour for negative ones. */
export const SCALE = ["#c6dbef", "#9ecae1", "#6baed6", "#3182bd", "#08519c"];
export const NEGATIVE = "#e6550d";
/** A country none of whose assets could be converted (no exchange rate): hatched, never the colour
 * of a value of 0 (WorldMap.tsx defines the pattern). */
export const NO_RATE = `url(#${NO_RATE_PATTERN})`;

/** The colour step (0–4) of a value in [0, max], in exact decimals. */
export function step(value: string, max: string): number {
  const m = new Dec(max);
  if (m.lte(0)) return 0;
  const k = new Dec(value).div(m).mul(SCALE.length).floor().toNumber();
  return Math.min(SCALE.length - 1, Math.max(0, k));
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The largest net value of the countries with one (the top of the colour scale; "0" when none). */
function largestNet(countries: readonly Slice[]): string {
  return countries.reduce((m, s) => (!uncounted(s) && new Dec(s.net).gt(m) ? s.net : m), "0");
}

/** Each country's colour and the text a screen reader (and the hover title) gives it. A country
 * whose assets lack an exchange rate says so: its value is not 0, it is unknown (or incomplete). */
export function countryFills(countries: readonly Slice[], base: string, language: Language, t: Translate): Map<string, CountryFill> {
  const max = largestNet(countries);
  const out = new Map<string, CountryFill>();
  for (const s of countries) {
    const country = countryName(s.key, language);
    if (uncounted(s)) {
      out.set(s.key, { code: s.key, fill: NO_RATE, label: t("wealthMap.countryNoRate", { country, count: s.missing }) });
      continue;
    }
    const fill = new Dec(s.net).isNegative() ? NEGATIVE : SCALE[step(s.net, max)]!;
    const value = t("wealthMap.countryValue", { country, value: money(s.net, base, language) });
    out.set(s.key, { code: s.key, fill, label: s.missing > 0 ? `${value} ${t("wealthMap.countryIncomplete", { count: s.missing })}` : value });
  }
  return out;
}

export function WealthMapScreen() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { classLabel } = useAssetLabels();
  const { country: selected } = route.useSearch();
  const navigate = useNavigate();
  const figures = useDashboardFigures({ history: false });
  const { assets, now, base } = figures;
  const select = (code: string | undefined) => void navigate({ to: "/map", search: code ? { country: code } : {}, replace: true });

  const countries = useMemo(() => (now ? now.distribution.country.filter((s) => s.key !== "none" && s.key !== "unknown") : []), [now]);
  const max = useMemo(() => largestNet(countries), [countries]);
  // A range's ends in whole units ("40.000 €", not "40.000,00 €"): they are rounded bounds, not amounts.
  const bound = (i: number) => money(new Dec(max).mul(i).div(SCALE.length).toFixed(0), base, language, { maximumFractionDigits: 0, minimumFractionDigits: 0 });
  const fills = useMemo(() => countryFills(countries, base, language, t as Translate), [countries, t, language, base]);

  const byCountry = useMemo(() => {
    const m = new Map<string, AssetRec[]>();
    for (const a of assets ?? []) {
      // Sold or otherwise gone: not on today's map (its figures leave it out too).
      if (isDisposed(a.fields)) continue;
      const tl = a.fields.taxLocation;
      const key = tl?.noTaxRegistration || !tl?.country ? "none" : tl.country;
      let list = m.get(key);
      if (!list) m.set(key, (list = []));
      list.push(a);
    }
    return m;
  }, [assets]);

  const assetTable = (list: readonly AssetRec[], caption: string, testId: string) => (
    <ScrollRegion className={dash.tableWrap}>
      <table className={dash.table} data-testid={testId}>
        <caption className={dash.caption}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("wealthMap.asset")}</th>
            <th scope="col">{t("dashboard.dimensions.class")}</th>
            <th scope="col" className={dash.num}>{t("wealthMap.assetValue", { currency: base })}</th>
          </tr>
        </thead>
        <tbody>
          {list.map((a) => {
            const v = now?.perAsset[a.id];
            return (
              <tr key={a.id} data-id={a.id}>
                <th scope="row">
                  <Link to="/assets/$assetId" params={{ assetId: a.id }}>
                    {a.fields.name}
                  </Link>
                </th>
                <td>{classLabel(a.fields.assetClass as AssetClass)}</td>
                <td className={dash.num}>{v ? money(v.value, base, language) : t("money.notAvailable")}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );

  const apart = byCountry.get("none") ?? [];
  const selectedList = selected && selected !== "none" ? (byCountry.get(selected) ?? []) : [];
  const missingCount = now?.netWorth.missing.filter((m) => m.kind === "asset").length ?? 0;

  return (
    <div className={dash.page}>
      <PageHeader title={t("wealthMap.title")} subtitle={t("wealthMap.subtitle")} />
      {assets === undefined ? (
        <Skeleton shape="block" />
      ) : assets.length === 0 ? (
        <EmptyState icon={<MapIcon size={24} />} title={t("wealthMap.empty.title")} text={t("wealthMap.empty.description")} data-testid="map-empty" />
      ) : (
        <>
          <Card>
            <div className={styles.mapBox}>
              <Suspense fallback={<p className={dash.muted}>{t("wealthMap.loadingMap")}</p>}>
                <WorldMap fills={fills} selected={selected} onSelect={(c) => select(c)} label={t("wealthMap.mapLabel")} />
              </Suspense>
            </div>
            <ul className={styles.legend} aria-label={t("wealthMap.legend")} data-testid="map-legend">
              <li>
                <span className={`${styles.swatch} ${styles.none}`} aria-hidden="true" />
                {t("wealthMap.legendNone")}
              </li>
              {/* The value ranges only once there is a positive value to split (not "0 € – 0 €" five times). */}
              {new Dec(max).gt(0) && SCALE.map((c, i) => (
                <li key={c}>
                  <span className={`${styles.swatch} ${styles[`s${i}`]}`} aria-hidden="true" />
                  {bound(i)} – {bound(i + 1)}
                </li>
              ))}
              <li>
                <span className={`${styles.swatch} ${styles.neg}`} aria-hidden="true" />
                {t("wealthMap.legendNegative")}
              </li>
              {countries.some(uncounted) && (
                <li>
                  <span className={`${styles.swatch} ${styles.noRate}`} aria-hidden="true" />
                  {t("wealthMap.legendNoRate")}
                </li>
              )}
            </ul>
            {missingCount > 0 && <Alert tone="warning">{t("wealthMap.noRates", { count: missingCount })}</Alert>}
          </Card>

          {/* Choosing a country (map or table) shows its assets above: said to screen readers too. */}
          <p className={dash.srOnly} aria-live="polite" data-testid="map-announce">
            {selected && selected !== "none" ? t("wealthMap.shown", { country: countryName(selected, language), count: selectedList.length }) : ""}
          </p>
          {selected && selected !== "none" && (
            <Card
              title={t("wealthMap.selected", { country: countryName(selected, language) })}
              actions={
                <Button variant="ghost" size="sm" onClick={() => select(undefined)}>
                  {t("wealthMap.close")}
                </Button>
              }
              data-testid="country-assets"
              data-country={selected}
            >
              {selectedList.length > 0 ? (
                assetTable(selectedList, t("wealthMap.selected", { country: countryName(selected, language) }), "country-asset-table")
              ) : (
                <p className={dash.muted} data-testid="country-no-assets">
                  {t("wealthMap.noAssetsIn", { country: countryName(selected, language) })}
                </p>
              )}
            </Card>
          )}

          <Card title={t("wealthMap.table.caption")}>
            {!now ? (
              <p className={dash.muted} aria-busy="true">
                {t("dashboard.computing")}
              </p>
            ) : countries.length === 0 ? (
              <p className={dash.muted}>{t("wealthMap.none")}</p>
            ) : (
              <ScrollRegion className={dash.tableWrap}>
                <table className={dash.table} data-testid="country-table">
                  <caption className={dash.caption}>{t("wealthMap.table.caption")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("wealthMap.table.country")}</th>
                      <th scope="col" className={dash.num}>{t("wealthMap.table.value", { currency: base })}</th>
                      <th scope="col" className={dash.num}>{t("wealthMap.table.net", { currency: base })}</th>
                      <th scope="col" className={dash.num}>{t("wealthMap.table.count")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {countries.map((s) => (
                      <tr key={s.key} data-country={s.key} data-net={s.net}>
                        <th scope="row">
                          <Button variant="ghost" size="sm" aria-pressed={selected === s.key} onClick={() => select(s.key)}>
                            {countryName(s.key, language)}
                          </Button>
                        </th>
                        {uncounted(s) ? (
                          <>
                            <td className={`${dash.num} ${dash.unavailable}`}>{t("money.notAvailable")}</td>
                            <td className={`${dash.num} ${dash.unavailable}`}>{t("money.notAvailable")}</td>
                          </>
                        ) : (
                          <>
                            <td className={dash.num}>{money(s.value, base, language)}</td>
                            <td className={dash.num}>{money(s.net, base, language)}</td>
                          </>
                        )}
                        <td className={dash.num}>
                          {s.count}
                          {s.missing > 0 && <span className={dash.warnNote}> {t("dashboard.table.missing", { count: s.missing })}</span>}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            )}
            {now && now.untiedLiabilities.count > 0 && <p className={dash.muted}>{t("wealthMap.untiedDebts", { value: money(now.untiedLiabilities.value, base, language) })}</p>}
          </Card>

          {apart.length > 0 && (
            <Card title={t("wealthMap.apart")} description={t("wealthMap.apartDescription")} data-testid="assets-apart">
              {assetTable(apart, t("wealthMap.apart"), "apart-table")}
            </Card>
          )}
        </>
      )}
    </div>
  );
}
