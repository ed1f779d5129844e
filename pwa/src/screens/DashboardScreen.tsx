import { Wallet } from "lucide-react";
import { useTranslation } from "react-i18next";

/** "/": the consolidated overview. Until assets exist (clientdb), it shows the empty state. */
export function DashboardScreen() {
  const { t } = useTranslation();
  return (
    <div className="page">
      <div className="page-header">
        <h1 className="page-title">{t("dashboard.title")}</h1>
        <p className="page-subtitle">{t("dashboard.subtitle")}</p>
      </div>
      <section className="empty-state" data-testid="dashboard-empty" aria-labelledby="dashboard-empty-title">
        <span className="empty-state-icon" aria-hidden="true">
          <Wallet size={24} />
        </span>
        <h2 id="dashboard-empty-title" className="empty-state-title">
          {t("dashboard.empty.title")}
        </h2>
        <p className="empty-state-text">{t("dashboard.empty.description")}</p>
      </section>
    </div>
  );
}
