// Summary: class, category, current value, participation value, valuation date and how old it is.
import { participationValue } from "@patrimonio/shared-schema";
import { useTranslation } from "react-i18next";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import { INTL_LOCALES } from "../../../i18n/format";
import { useFormatters } from "../../../i18n/useFormatters";
import { useLanguage } from "../../../i18n/useLanguage";
import { Card } from "../../../ui/Card";
import { useAssetDetail } from "./context";
import { localToday } from "../../../time/localToday";
import { valuationAge } from "./detailModel";
import { Facts } from "./Facts";
import { FieldConflicts } from "./FieldConflicts";

/** "hace 3 meses" / "3 months ago" / "hoy". */
export function useAgeText() {
  const { language } = useLanguage();
  return (date: string) => {
    const { value, unit } = valuationAge(date, localToday());
    return new Intl.RelativeTimeFormat(INTL_LOCALES[language], { numeric: "auto" }).format(value, unit);
  };
}

export function SummarySection() {
  const { t } = useTranslation();
  const { asset } = useAssetDetail();
  const fmt = useFormatters();
  const labels = useAssetLabels();
  const age = useAgeText();
  const f = asset.fields;
  const pv = participationValue(f);
  const none = t("assetDetail.value.empty");
  const category = labels.categoryLabel(f.category, f.customCategory, f.assetClass);
  return (
    <Card title={t("assetDetail.summary.title")} data-testid="section-summary">
      <Facts
        testId="summary"
        facts={[
          { id: "class", label: t("assetDetail.fields.assetClass"), value: labels.classLabel(f.assetClass) },
          { id: "category", label: t("assetDetail.fields.category"), value: category },
          { id: "currentValue", label: t("assetDetail.fields.currentValue"), value: f.currentValue ? fmt.money(f.currentValue, f.currency) : none },
          {
            id: "participationValue",
            label: t("assetDetail.summary.participationValue", { percent: fmt.percent(f.participation) }),
            value: pv ? fmt.money(pv, f.currency) : none,
          },
          {
            id: "valuationDate",
            label: t("assetDetail.fields.valuationDate"),
            value: f.valuationDate ? (
              <>
                {fmt.date(f.valuationDate)} <span data-testid="valuation-age">({age(f.valuationDate)})</span>
              </>
            ) : (
              none
            ),
          },
        ]}
      />
      <FieldConflicts fields={["name", "assetClass", "category", "customCategory", "currency"]} />
    </Card>
  );
}
