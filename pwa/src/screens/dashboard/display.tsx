// Showing the figures: money in the base currency and returns in the reader's format, the label of a
// slice of each dimension, and where a slice leads (the matching asset list).
import type { LinkProps } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import type { AssetClass } from "@patrimonio/shared-schema";
import { useAssetLabels } from "../../assets/useAssetLabels";
import type { DimensionId, ReturnFigure, Slice } from "../../figures/types";
import { formatMoney, formatNumber, INTL_LOCALES } from "../../i18n/format";
import type { Language } from "../../i18n/i18n";
import { useLanguage } from "../../i18n/useLanguage";
import { currencyName } from "../../ui/currency";

/** "238.796,30 €"; the decimal string is rounded by Intl to the currency's decimals. */
export function money(amount: string, currency: string, language: Language, options?: Parameters<typeof formatMoney>[3]): string {
  try {
    return formatMoney(amount, currency, language, options);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** A fraction ("0.0385") as a percentage ("3,85 %"), with a sign when asked. */
export function percent(fraction: string, language: Language, signed = false): string {
  return formatNumber(fraction, language, { style: "percent", minimumFractionDigits: 2, maximumFractionDigits: 2, ...(signed ? { signDisplay: "exceptZero" } : {}) });
}

/** Whether none of a group's assets could be counted (each lacks an exchange rate): its value is
 * unknown, not 0. */
export function uncounted(s: Pick<Slice, "count" | "missing">): boolean {
  return s.missing > 0 && s.missing === s.count;
}

/** An axis tick of amounts in `currency`, short and the reader's way: "240 mil €" (es), "€240k" (en).
 * Ticks are the chart's round numbers; exact amounts are in the tooltips and the tables. */
export function axisMoney(value: number, currency: string, language: Language): string {
  try {
    return formatNumber(value, language, { style: "currency", currency, notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 });
  } catch {
    return formatNumber(value, language, { notation: "compact" });
  }
}

/** An axis tick of a return given as a fraction (0.025): "2,5 %" (es), "2.5%" (en). */
export function axisPercent(fraction: number, language: Language): string {
  return formatNumber(fraction, language, { style: "percent", maximumFractionDigits: 2 });
}

export function countryName(code: string, language: Language): string {
  try {
    return new Intl.DisplayNames([INTL_LOCALES[language]], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The label of a slice key in a dimension. */
export function useSliceLabel(): (dimension: DimensionId, slice: Slice) => string {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const { classLabel, categoryLabel } = useAssetLabels();
  return (dimension, slice) => {
    if (slice.key === "unknown") return t("dashboard.keys.unknown");
    switch (dimension) {
      case "class":
        return classLabel(slice.classCode as AssetClass);
      case "category":
        return categoryLabel(slice.categoryCode ?? slice.key, undefined, slice.classCode as AssetClass);
      case "currency":
        return `${currencyName(slice.key, language)} (${slice.key})`;
      case "country":
        return slice.key === "none" ? t("dashboard.keys.noTaxRegistration") : countryName(slice.key, language);
      case "liquidity":
        return t("dashboard.keys.liquidity", { n: slice.key });
      case "risk":
        return t("dashboard.keys.risk", { n: slice.key });
      case "institution":
        return slice.key;
      case "structure":
        return slice.key === "direct" ? t("dashboard.keys.direct") : (slice.name ?? slice.key);
    }
  };
}

/** Where clicking a slice goes: the matching asset list (or the map for a country), or null. */
export function sliceLink(dimension: DimensionId, slice: Slice): LinkProps | null {
  switch (dimension) {
    case "class":
      return slice.classId ? { to: "/assets/classes/$assetType", params: { assetType: String(slice.classId) } } : null;
    case "category":
      return slice.classId && /^\d+$/.test(slice.key)
        ? { to: "/assets/classes/$assetType/category/$categoryId", params: { assetType: String(slice.classId), categoryId: slice.key } }
        : null;
    case "country":
      return slice.key === "none" || slice.key === "unknown" ? { to: "/map", search: { country: "none" } } : { to: "/map", search: { country: slice.key } };
    case "institution":
      return slice.key === "unknown" ? null : { to: "/assets", search: { q: slice.key } };
    case "structure":
      return { to: "/assets", search: { tab: "legal-structures" } };
    default:
      return null;
  }
}

/** A return, or "no disponible" with its reason (never 0 %). Marks: "*" approximate (modified
 * Dietz), "†" another rate also balances the cash flows; the title says what the figure is. */
export function useReturnText(): (f: ReturnFigure) => { text: string; title?: string; ok: boolean } {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (f) => {
    if (!f.ok) return { text: t("money.notAvailable"), title: t(`money.unavailable.${f.reason}`), ok: false };
    const notes = [
      f.annualized === true ? t("money.returns.annualized") : f.annualized === false ? t("money.returns.lessThanAYear") : undefined,
      f.approximate ? t("money.returns.approximate") : undefined,
      f.multipleRoots ? t("money.returns.multipleRoots") : undefined,
    ].filter((n): n is string => n !== undefined);
    const text = percent(f.value, language, true) + (f.approximate ? " *" : "") + (f.multipleRoots ? " †" : "");
    return { text, ok: true, ...(notes.length > 0 ? { title: notes.join(" ") } : {}) };
  };
}
