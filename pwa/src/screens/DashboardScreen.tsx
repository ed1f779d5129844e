import { Wallet } from "lucide-react";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../ui/EmptyState";
import { PageHeader } from "../ui/PageHeader";
import styles from "./DashboardScreen.module.css";

/** "/": the consolidated overview. Until assets exist (clientdb), it shows the empty state. */
export function DashboardScreen() {
  const { t } = useTranslation();
  return (
    <div className={styles.page}>
      <PageHeader title={t("dashboard.title")} subtitle={t("dashboard.subtitle")} />
      <EmptyState
        data-testid="dashboard-empty"
        icon={<Wallet size={24} />}
        title={t("dashboard.empty.title")}
        text={t("dashboard.empty.description")}
      />
    </div>
  );
}
