// "hace 3 meses" / "3 months ago" for a valuation date.
import { useTranslation } from "react-i18next";
import { valuationAgeText } from "../../../assets/valuationAge";

export function ValuationAge({ date, today, className }: { date: string | undefined; today?: string; className?: string }) {
  const { t } = useTranslation();
  if (date === undefined) return null;
  const text = valuationAgeText((key, options) => String(options ? t(key as never, options as never) : t(key as never)), date, today);
  return <span className={className}>{text}</span>;
}
