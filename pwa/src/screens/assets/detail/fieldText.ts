// How a value of an asset field reads on screen, in the reader's language and format: amounts in
// the asset's currency, dates, percentages, enum labels from the shared schema, nested groups.
// Used by the read-only kind-specific fields and by the conflict notes (the value that lost).
import { labelKey, type EnumListName } from "@patrimonio/shared-schema";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { intlCountryName } from "../../../assets/search";
import { subdivisionText, useSubdivisions } from "../../../forms/subdivisions";
import { SCHEMA_NAMESPACE } from "../../../i18n/i18n";
import { useFormatters } from "../../../i18n/useFormatters";
import { useLanguage } from "../../../i18n/useLanguage";

const MONEY = new Set(["purchaseValue", "currentValue", "taxValue", "committedAmount", "totalContractAmount", "value", "amountOutstanding"]);
const PRICE = new Set(["strike", "tokenPrice"]);
const DATES = new Set(["purchaseDate", "valuationDate", "amortizationDate", "startDate", "expiryDate", "date"]);
const PERCENT = new Set(["participation", "rate", "expectedReturn", "percentage", "ownershipPercentage"]);
const NUMBER = new Set(["quantity", "expectedMultiple"]);
const ENUMS: Record<string, EnumListName> = {
  assetClass: "assetClass",
  category: "assetCategory",
  propertyUse: "propertyUse",
  status: "propertyStatus",
  bondType: "bondType",
  paymentFrequency: "paymentFrequency",
  holdingType: "holdingType",
  acquisitionForm: "acquisitionForm",
  legalType: "legalType",
  condition: "vehicleCondition",
  horizon: "investmentHorizon",
  direction: "derivativeDirection",
  unit: "areaUnit",
  priority: "priority",
  source: "valuationSource",
  kind: "liabilityKind",
};

/** The translated label of an enum code (the code itself when unknown, e.g. an admin-added one). */
export function useEnumLabel() {
  const { t } = useTranslation();
  return useCallback(
    (list: EnumListName, code: string) =>
      (t as unknown as (key: string, options: Record<string, unknown>) => string)(labelKey(list, code), { ns: SCHEMA_NAMESPACE, defaultValue: code }),
    [t],
  );
}

/** The label of an asset field ("Fecha de compra"), from the assetDetail.fields section. */
export function useFieldLabel() {
  const { t } = useTranslation();
  return useCallback((field: string) => t(`assetDetail.fields.${field}`, { defaultValue: field }), [t]);
}

/**
 * A function that renders a field's value as text. `names` resolves ids to names (the legal
 * structure holding the asset).
 */
export function useValueText(currency: string, names: Record<string, string> = {}) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const enumLabel = useEnumLabel();
  const fieldLabel = useFieldLabel();
  const { language } = useLanguage();
  const subdivisions = useSubdivisions();
  const countryName = useMemo(() => intlCountryName(language), [language]);

  return useMemo(() => {
    const text = (field: string, value: unknown, parent?: string): string => {
      if (value === null || value === undefined || value === "") return t("assetDetail.value.empty");
      if (typeof value === "boolean") return value ? t("assetDetail.value.yes") : t("assetDetail.value.no");
      if (Array.isArray(value)) {
        if (field === "otherOwners") {
          return value
            .map((o: { name?: string; percentage?: string }) => `${o.name ?? ""} (${fmt.percent(o.percentage ?? "0")})`)
            .join(", ");
        }
        return value.map((v) => text(field, v)).join(", ");
      }
      if (typeof value === "object") {
        const o = value as Record<string, unknown>;
        if (field === "area" || field === "mileage") {
          const unit = typeof o.unit === "string" ? (field === "area" ? enumLabel("areaUnit", o.unit) : enumLabel("mileageUnit", o.unit)) : "";
          return `${fmt.number(String(o.value))} ${unit}`.trim();
        }
        if (field === "disposal") {
          // "Vendido · 15 ene 2025 · 260.000,00 €": how, when and for how much it left.
          const parts = [typeof o.kind === "string" ? enumLabel("disposalKind", o.kind) : "", typeof o.date === "string" ? fmt.date(o.date) : ""];
          if (typeof o.amount === "string") parts.push(fmt.money(o.amount, currency));
          return parts.filter((p) => p !== "").join(" · ");
        }
        if (field === "taxLocation") {
          if (o.noTaxRegistration === true) return t("assetDetail.value.noTaxRegistration");
          // The province (a code, or a name stored before codes) and the country in the reader's language.
          const country = typeof o.country === "string" ? o.country : undefined;
          const state = typeof o.state === "string" ? subdivisionText(subdivisions, country, o.state, language) : undefined;
          return [o.city, state, country && countryName(country)].filter((p) => typeof p === "string" && p !== "").join(", ");
        }
        return Object.entries(o)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${fieldLabel(k)}: ${text(k, v, field)}`)
          .join(" · ");
      }
      const s = String(value);
      try {
        if (field === "legalStructureId") return names[s] ?? t("assetDetail.value.unknownStructure");
        if (MONEY.has(field)) return fmt.money(s, currency);
        if (PRICE.has(field)) return `${fmt.number(s, { maximumFractionDigits: 10 })} ${currency}`;
        if (DATES.has(field)) return fmt.date(s);
        if (PERCENT.has(field)) return fmt.percent(s);
        if (NUMBER.has(field)) return fmt.number(s, { maximumFractionDigits: 18 });
        if (field === "unit" && parent === "mileage") return enumLabel("mileageUnit", s);
        const list = ENUMS[field];
        if (list) return enumLabel(list, s);
      } catch {
        // A value that does not parse (a record written by an older or broken client): shown as is.
      }
      return s;
    };
    return text;
  }, [t, fmt, enumLabel, fieldLabel, currency, names, subdivisions, language, countryName]);
}
