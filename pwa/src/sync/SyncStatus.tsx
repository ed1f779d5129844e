// The sync indicator of the top bar: an icon and a short text (synced, syncing, offline), the
// counts that need attention (pending, refused, conflicts) and when the device last synced. Every
// tab shows it (the status lives in the device database); screen readers hear its changes politely.
import { useSyncStatus, type SyncStatus as Status } from "@patrimonio/clientdb";
import { CloudCheck, CloudOff, CloudSync, GitMerge, TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../i18n/useFormatters";
import "./syncStatus.css";

const ICONS = { synced: CloudCheck, syncing: CloudSync, offline: CloudOff } as const;

/** Error codes that stop syncing, and the key of their explanation. */
function errorKey(code: string): "sync.error.unauthorized" | "sync.error.version" | "sync.error.replaced" | "sync.error.forbidden" | "sync.error.other" {
  switch (code) {
    case "unauthorized":
      return "sync.error.unauthorized";
    case "protocol_version":
    case "schema_version":
      return "sync.error.version";
    case "replaced":
      return "sync.error.replaced";
    case "forbidden":
      return "sync.error.forbidden";
    default:
      return "sync.error.other";
  }
}

/** The indicator for a status (stateless; SyncStatus feeds it from the device database). */
export function SyncStatusView({ status }: { status: Status }) {
  const { t } = useTranslation();
  const f = useFormatters();
  const Icon = ICONS[status.state];

  let label: string = t(`sync.state.${status.state}`);
  if (status.snapshot !== null && status.state !== "offline") label = t("sync.snapshot", { count: status.snapshot.received });
  if (status.error !== null) label = t(errorKey(status.error));

  let last: string = t("sync.neverSynced");
  if (status.lastSyncedAt !== null) {
    last = t("sync.lastSynced", { time: f.date(new Date(status.lastSyncedAt), { dateStyle: "short", timeStyle: "short" }) });
  }

  return (
    <div className="sync-status" role="status" aria-live="polite" data-state={status.state} data-testid="sync-status" title={last}>
      <Icon size={18} aria-hidden="true" className="sync-status-icon" />
      <span className="sync-status-label">{label}</span>
      {status.state === "offline" && status.error === null && <span className="sync-status-detail">{last}</span>}
      {status.pending > 0 && (
        <span className="sync-status-badge" data-kind="pending">
          {t("sync.pending", { count: status.pending })}
        </span>
      )}
      {status.rejected > 0 && (
        <span className="sync-status-badge" data-kind="rejected">
          <TriangleAlert size={14} aria-hidden="true" />
          {t("sync.rejected", { count: status.rejected })}
        </span>
      )}
      {status.conflicts > 0 && (
        <span className="sync-status-badge" data-kind="conflicts">
          <GitMerge size={14} aria-hidden="true" />
          {t("sync.conflicts", { count: status.conflicts })}
        </span>
      )}
    </div>
  );
}

/** The top bar's sync indicator; renders nothing while there is no device database (signed out,
 * or a browser without IndexedDB / Web Locks). */
export function SyncStatus() {
  const status = useSyncStatus();
  if (status === undefined) return null;
  return <SyncStatusView status={status} />;
}
