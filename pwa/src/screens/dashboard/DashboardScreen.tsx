// "/": the consolidated overview. This chunk is small on purpose (the first page's JavaScript budget):
// the page's frame, the empty state and the legal notices. The figures (DashboardContent) load
// only when the workspace has assets, and the charts after them.
import { Link } from "@tanstack/react-router";
import { Wallet } from "lucide-react";
import { lazy, Suspense, useContext } from "react";
import { useTranslation } from "react-i18next";
import { useAssets } from "../../assets/hooks";
import { DeviceSyncActive } from "../../sync/engineContext";
import { buttonClass } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import styles from "./Dashboard.module.css";
import { Notices } from "./Notices";

const DashboardContent = lazy(() => import("./DashboardContent").then((m) => ({ default: m.DashboardContent })));

export function DashboardScreen() {
  const { t } = useTranslation();
  const listed = useAssets();
  // No device database is coming (a browser without IndexedDB): nothing to show on this device.
  const assets = useContext(DeviceSyncActive) ? listed : [];
  return (
    <div className={styles.page}>
      <PageHeader title={t("dashboard.title")} subtitle={t("dashboard.subtitle")} />
      {assets === undefined ? (
        <Skeleton shape="block" />
      ) : assets.length === 0 ? (
        <>
          <EmptyState
            data-testid="dashboard-empty"
            icon={<Wallet size={24} />}
            title={t("dashboard.empty.title")}
            text={t("dashboard.empty.description")}
            action={
              <Link to="/assets/new" className={buttonClass({ variant: "primary" })}>
                {t("dashboard.empty.add")}
              </Link>
            }
          />
          <Notices base={null} oldestRateDate={null} newestRateDate={null} />
        </>
      ) : (
        <Suspense fallback={<Skeleton shape="block" />}>
          <DashboardContent />
        </Suspense>
      )}
    </div>
  );
}
