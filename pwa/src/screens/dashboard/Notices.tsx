// The dashboard's legal notices: not financial advice, how the figures are computed, and the dates
// of the exchange rates used.
import { useTranslation } from "react-i18next";
import { formatDate } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { Card } from "../../ui/Card";
import styles from "./Dashboard.module.css";

export function Notices({ base, oldestRateDate, newestRateDate }: { base: string | null; oldestRateDate: string | null; newestRateDate: string | null }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <Card title={t("dashboard.notices.title")} data-testid="legal-notices">
      <div className={styles.notices}>
        <p>{t("dashboard.notices.noAdvice")}</p>
        <p>{t("dashboard.notices.howComputed", { base: base ?? "EUR" })}</p>
        <p>{t("dashboard.notices.debts")}</p>
        <p>{t("dashboard.notices.returns")}</p>
        {base !== null && (
          <p data-testid="notice-rate-date">
            {oldestRateDate
              ? t("dashboard.notices.rateDate", { from: formatDate(oldestRateDate, language), to: formatDate(newestRateDate ?? oldestRateDate, language) })
              : t("dashboard.notices.noRateUsed")}
          </p>
        )}
      </div>
    </Card>
  );
}
