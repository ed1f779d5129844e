// The sync indicator of the top bar: an icon and a short text (synced, syncing, connecting, offline), the
// counts that need attention (pending, refused, conflicts) and when the device last synced. The
// refused count is a button: it opens the panel of refused changes (RejectedChanges.tsx). Every
// tab shows it (the status lives in the device database); screen readers hear its changes politely.
// The device database loads after the first paint (engineContext.ts): until then it shows a neutral
// "starting" state. This module does not load Dexie; the live indicator is in engine.tsx.
import type { SyncStatus as Status } from "@patrimonio/clientdb";
import { useClientDb } from "@patrimonio/clientdb/context";
import { Cloud, CloudAlert, CloudCheck, CloudOff, CloudSync, GitMerge, TriangleAlert } from "lucide-react";
import { lazy, Suspense, use, useContext, useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../i18n/useFormatters";
import { DeviceSyncActive, DeviceSyncOpenFailed, loadedSyncEngine, loadSyncEngine } from "./engineContext";
import { useServerBehind } from "./serverBehind";
import styles from "./SyncStatus.module.css";

// The refused-changes panel, loaded when the badge is pressed (the device database is open by then).
const RejectedChanges = lazy(() => import("./RejectedChanges"));

const ICONS = { synced: CloudCheck, syncing: CloudSync, connecting: Cloud, offline: CloudOff } as const;

/** Error codes that stop syncing (or, storage_full and local_error, failures on this device that
 * it retries), and the key of their explanation. A version refusal by a server older than the app
 * (serverBehind.ts) is no reason to update: the changes wait on the device. */
function errorKey(
  code: string,
  serverBehind: boolean,
):
  | "sync.error.unauthorized"
  | "sync.error.version"
  | "sync.error.serverBehind"
  | "sync.error.replaced"
  | "sync.error.forbidden"
  | "sync.error.storage"
  | "sync.error.local"
  | "sync.error.other" {
  switch (code) {
    case "storage_full":
      return "sync.error.storage";
    case "local_error":
      return "sync.error.local";
    case "unauthorized":
      return "sync.error.unauthorized";
    case "protocol_version":
    case "schema_version":
      return serverBehind ? "sync.error.serverBehind" : "sync.error.version";
    case "replaced":
      return "sync.error.replaced";
    case "forbidden":
      return "sync.error.forbidden";
    default:
      return "sync.error.other";
  }
}

/** The indicator for a status (SyncStatus feeds it from the device database). */
export function SyncStatusView({ status }: { status: Status }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const Icon = ICONS[status.state];
  const [showRejected, setShowRejected] = useState(false);
  const serverBehind = useServerBehind();

  let label: string = t(`sync.state.${status.state}`);
  if (status.snapshot !== null && status.state === "syncing") label = t("sync.snapshot", { count: status.snapshot.received });
  if (status.error !== null) label = t(errorKey(status.error, serverBehind));

  let last: string = t("sync.neverSynced");
  if (status.lastSyncedAt !== null) {
    last = t("sync.lastSynced", { time: f.date(new Date(status.lastSyncedAt), { dateStyle: "short", timeStyle: "short" }) });
  }

  return (
    <div className={styles.status} role="status" aria-live="polite" data-state={status.state} data-testid="sync-status" title={last}>
      <Icon size={18} aria-hidden="true" className={styles.icon} />
      <span className={styles.label}>{label}</span>
      {status.state === "offline" && status.error === null && <span className={styles.detail}>{last}</span>}
      {status.pending > 0 && (
        <span className={styles.badge} data-kind="pending">
          {t("sync.pending", { count: status.pending })}
        </span>
      )}
      {status.rejected > 0 && (
        <button
          type="button"
          className={styles.badge}
          data-kind="rejected"
          aria-haspopup="dialog"
          title={t("sync.rejectedChanges.openHint")}
          onClick={() => setShowRejected(true)}
        >
          <TriangleAlert size={14} aria-hidden="true" />
          {t("sync.rejected", { count: status.rejected })}
        </button>
      )}
      {status.conflicts > 0 && (
        <span className={styles.badge} data-kind="conflicts">
          <GitMerge size={14} aria-hidden="true" />
          {t("sync.conflicts", { count: status.conflicts })}
        </span>
      )}
      {showRejected && (
        // Stays open when the last refused change goes (it then says there are none).
        <Suspense fallback={null}>
          <RejectedChanges open onOpenChange={setShowRejected} total={status.rejected} />
        </Suspense>
      )}
    </div>
  );
}

/** The neutral indicator while the device database is starting (loading or opening). */
export function SyncStatusPending() {
  const { t } = useTranslation();
  return (
    <div className={styles.status} role="status" aria-live="polite" data-state="starting" data-testid="sync-status">
      <Cloud size={18} aria-hidden="true" className={styles.icon} />
      <span className={styles.label}>{t("sync.state.starting")}</span>
    </div>
  );
}

/** The device database could not be opened: says so, with a button that tries again. */
export function SyncStatusOpenFailed({ retry }: { retry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={styles.status} role="status" aria-live="polite" data-state="failed" data-testid="sync-status">
      <CloudAlert size={18} aria-hidden="true" className={styles.icon} />
      <span className={styles.label}>{t("sync.openFailed")}</span>
      <button type="button" className={styles.retry} onClick={retry}>
        {t("sync.retry")}
      </button>
    </div>
  );
}

/** The top bar's sync indicator: neutral while the device database is starting, then live; renders
 * nothing when no database is coming (signed out, or a browser without IndexedDB / Web Locks). */
export function SyncStatus() {
  const db = useClientDb();
  const active = useContext(DeviceSyncActive);
  const openFailed = useContext(DeviceSyncOpenFailed);
  if (db === null && active && openFailed !== null) return <SyncStatusOpenFailed retry={openFailed.retry} />;
  if (db === null) return active ? <SyncStatusPending /> : null;
  return (
    <Suspense fallback={<SyncStatusPending />}>
      <LiveSyncStatus />
    </Suspense>
  );
}

/** The live indicator of the engine (loaded by then under DeviceSync; loads it if a database was
 * provided some other way). */
function LiveSyncStatus() {
  const { LiveSyncStatus: Live } = loadedSyncEngine() ?? use(loadSyncEngine());
  return <Live />;
}
