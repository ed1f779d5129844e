// "/": the consolidated overview. This chunk is small on purpose (the first page's JavaScript budget):
// the page's frame, the empty state and the legal notices. The figures (DashboardContent) load
// only when the workspace has assets, and the charts after them.
import { Link } from "@tanstack/react-router";
import { Wallet } from "lucide-react";
import { lazy, Suspense, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useAssets, useAssetWorkspace } from "../../assets/hooks";
import { formatMoney } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { EmptyState } from "../../ui/EmptyState";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import styles from "./Dashboard.module.css";
import { Notices } from "./Notices";
import { DEFAULT_BASE, readHeld } from "./baseCurrency";
import { readSnapshot } from "./snapshot";
import { localToday } from "../../time/localToday";

const DashboardContent = lazy(() => import("./DashboardContent").then((m) => ({ default: m.DashboardContent })));

export function DashboardScreen() {
  const { t } = useTranslation();
  // A device database that cannot be read (a failed open, a browser without IndexedDB) never gets
  // here: the shell shows why instead (sync/DeviceData.tsx), never "no assets yet".
  const assets = useAssets();
  const { workspaceId } = useAssetWorkspace();
  // While the device database opens, the last figures of the workspace (if any) show at once, even
  // before the figures' chunk has loaded.
  const held = useMemo(() => readSnapshot(workspaceId), [workspaceId]);
  const snapshot = useMemo(() => {
    const today = localToday();
    return held && workspaceId && held.base === (readHeld(workspaceId)?.code ?? DEFAULT_BASE) && held.today === today ? held : undefined;
  }, [held, workspaceId]);
  const remembered = snapshot !== undefined;
  // A workspace this device never computed figures for (it remembers them once there are assets)
  // is new or empty: its frame (the empty state's place and the legal notices) shows at once, and
  // the empty state fills that place when the device database answers, without moving the notices.
  // A workspace with remembered figures waits for its figures, whose notices come below them.
  const framed = workspaceId !== undefined && held === undefined;
  const empty = assets !== undefined && assets.length === 0;
  const loading = assets === undefined && !remembered;
  return (
    <div className={styles.page}>
      <PageHeader title={t("dashboard.title")} subtitle={t("dashboard.subtitle")} />
      {empty || (loading && framed) ? (
        <>
          <div className={styles.emptySlot} aria-busy={empty ? undefined : true}>
            {empty ? (
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
            ) : (
              <Skeleton shape="block" className={styles.emptyFill} />
            )}
          </div>
          <Notices base={null} oldestRateDate={null} newestRateDate={null} />
        </>
      ) : loading ? (
        <Skeleton shape="block" />
      ) : (
        <Suspense fallback={snapshot ? <RememberedHeadline total={snapshot.now.netWorth.total} base={snapshot.base} savedAt={snapshot.savedAt} /> : <Skeleton shape="block" />}>
          <DashboardContent />
        </Suspense>
      )}
    </div>
  );
}

/** The net worth of the device's last figures, shown while the figures' chunk loads. */
function RememberedHeadline({ total, base, savedAt }: { total: string; base: string; savedAt: number }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <Card title={t("dashboard.netWorth.title")} data-testid="net-worth-card">
      <div className={styles.headline}>
        <p className={styles.netWorth} data-testid="net-worth" data-value={total} data-base={base} data-fresh="false">
          {formatMoney(total, base, language)}
        </p>
        <p className={styles.muted} role="status" data-testid="figures-stale">
          {t("dashboard.stale", { time: new Intl.DateTimeFormat(language === "es" ? "es-ES" : "en-GB", { dateStyle: "short", timeStyle: "short" }).format(savedAt) })}
        </p>
      </div>
    </Card>
  );
}
