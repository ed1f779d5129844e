// /assets/{assetId}/?tab=details|settings (spec §2): one asset, read and edited on the device
// database (works offline, syncs). Details: summary, instructions, options, ownership, financial
// information with the valuation history, associated debt, the kind's own fields and "delete
// asset". Settings: rename, category, legal structure, currency. An unknown, deleted or unreachable
// asset shows the Access Denied screen; a viewer sees the details read-only with the reason, and
// the settings tab (an editing screen) as Access Denied. A sold or disposed asset says so at the top
// and is read-only (no settings tab; ?tab=settings shows the details) until its sale is undone.
import { useClientDb, useConflicts, useRecord, useSyncStatus } from "@patrimonio/clientdb";
import { Link, useParams } from "@tanstack/react-router";
import { ArrowLeft } from "lucide-react";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { disposalStatusKey } from "../../../assets/disposal";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import { useMe } from "../../../api/queries";
import { Alert } from "../../../ui/Alert";
import { Badge } from "../../../ui/Badge";
import { Skeleton } from "../../../ui/Skeleton";
import { Tab, TabList, TabPanel, Tabs, useSearchParamTab } from "../../../ui/Tabs";
import { PageHeader } from "../../../ui/PageHeader";
import { AccessDenied } from "../../admin/AccessDenied";
import page from "../../page.module.css";
import { AssetDetailContext, assetDetailFor, type AssetDetail } from "./context";
import styles from "./detail.module.css";
import { DetailsTab } from "./DetailsTab";
import { useDisposalSentence } from "./DisposalSection";
import { SettingsTab } from "./SettingsTab";

export const DETAIL_TABS = ["details", "settings"] as const;
export type DetailTab = (typeof DETAIL_TABS)[number];

/** The shape of the screen while the device database opens or the first sync brings the asset. */
function DetailSkeleton() {
  const { t } = useTranslation();
  return (
    <div className={page.page} aria-busy="true" data-testid="asset-detail-loading">
      <p className={styles.srOnly} role="status">
        {t("assetDetail.loading")}
      </p>
      <Skeleton shape="title" />
      <div className={styles.grid}>
        <Skeleton shape="block" />
        <Skeleton shape="block" />
        <Skeleton shape="block" />
        <Skeleton shape="block" />
      </div>
    </div>
  );
}

export function AssetDetailScreen() {
  const { t } = useTranslation();
  const { assetId = "" } = useParams({ strict: false }) as { assetId?: string };
  const db = useClientDb();
  const me = useMe();
  const asset = useRecord("assets", db ? assetId : undefined);
  const conflicts = useConflicts(asset?.workspaceId, assetId);
  const status = useSyncStatus();
  const [tab, setTab] = useSearchParamTab<DetailTab>("tab", DETAIL_TABS, "details");
  const labels = useAssetLabels();

  const workspace = asset ? me.data?.workspaces.find((w) => w.id === asset.workspaceId) : undefined;
  const detail = useMemo<AssetDetail | null>(
    () =>
      db && asset && workspace ? assetDetailFor(db, asset, workspace.role, conflicts ?? []) : null,
    [db, asset, workspace, conflicts],
  );

  if (!db || asset === undefined || (me.isPending && !me.data)) return <DetailSkeleton />;
  // A device that has never finished a sync may not have the asset yet: wait for the first one.
  if (asset === null && status !== undefined && status.lastSyncedAt === null && status.state === "syncing") return <DetailSkeleton />;
  if (!asset || asset.deleted || !workspace || !detail) return <AccessDenied />;
  if (tab === "settings" && !detail.canManage) return <AccessDenied />;

  const f = asset.fields;
  const settings = detail.canEdit;
  const category = labels.categoryLabel(f.category, f.customCategory, f.assetClass);

  return (
    <AssetDetailContext.Provider value={detail}>
      <div className={page.page} data-testid="asset-detail" data-asset-id={asset.id}>
        <PageHeader
          title={f.name}
          subtitle={`${labels.classLabel(f.assetClass)} · ${category}`}
          back={
            <Link to="/assets" className={styles.backLink}>
              <ArrowLeft size={16} aria-hidden="true" /> {t("assetDetail.back")}
            </Link>
          }
        >
          <div className={styles.badges}>
            {detail.disposed && (
              <Badge tone="neutral" data-testid="disposed-badge">
                {t(disposalStatusKey(f) as never)}
              </Badge>
            )}
            {asset.pending > 0 && <Badge tone="warning">{t("assetDetail.pendingSync")}</Badge>}
            {conflicts && conflicts.length > 0 && (
              <Badge tone="warning" data-testid="conflict-count">
                {t("assetDetail.conflicts.count", { count: conflicts.length })}
              </Badge>
            )}
          </div>
        </PageHeader>
        {!detail.canEdit && (
          <Alert tone="info" className={styles.readOnly}>
            <span data-testid="read-only-notice">{t("assetDetail.readOnly")}</span>
          </Alert>
        )}
        {detail.disposed && <DisposedNotice />}
        {asset.rejected > 0 && <Alert tone="warning">{t("assetDetail.rejected")}</Alert>}
        <Tabs value={settings ? tab : "details"} onChange={setTab}>
          <TabList label={t("assetDetail.tabs.label")}>
            <Tab value="details">{t("assetDetail.tabs.details")}</Tab>
            {settings && <Tab value="settings">{t("assetDetail.tabs.settings")}</Tab>}
          </TabList>
          <TabPanel value="details">
            <DetailsTab />
          </TabPanel>
          {settings && (
            <TabPanel value="settings">
              <SettingsTab />
            </TabPanel>
          )}
        </Tabs>
      </div>
    </AssetDetailContext.Provider>
  );
}

/** A sold or disposed asset: how and when it left, and what may still be done with it. */
function DisposedNotice() {
  const { t } = useTranslation();
  const sentence = useDisposalSentence();
  return (
    <Alert tone="info" className={styles.readOnly}>
      <span data-testid="disposed-notice">{sentence}</span> <span>{t("assetDetail.disposal.readOnly")}</span>
    </Alert>
  );
}
