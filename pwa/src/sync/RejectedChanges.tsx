// The changes the sync server refused (DESIGN.md, Sync 7: "a reason the client shows … until the
// user fixes or discards it"), opened from the "N cambios rechazados" badge of the sync indicator.
// One entry per refused change of the active workspace, oldest first: the record (its kind and
// name), what the change was, the server's reason in the reader's language and when, with
// "Descartar" (the record shows the server's state again; a refused create disappears) and
// "Reintentar" (sent again as a new change, e.g. after the user's role was restored), and a link to
// the record while it is shown. Live: an entry leaves as soon as it is discarded, retried or fixed
// (saving the record again carries a refused edit, in any tab). With two or more, "Descartar todos"
// discards every one of the workspace after a confirmation that says how many. Loaded only when opened.
import {
  useClientDb,
  useRecordById,
  useWorkspaceRejected,
  type ClientDb,
  type RejectedView,
} from "@patrimonio/clientdb";
import type { Issue } from "@patrimonio/shared-schema";
import { Link } from "@tanstack/react-router";
import { useEffect, useMemo, useReducer, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssetWorkspace } from "../assets/hooks";
import { ensureSections } from "../i18n/loading";
import { useFormatters } from "../i18n/useFormatters";
import { Alert } from "../ui/Alert";
import { Button, buttonClass } from "../ui/Button";
import { Dialog, DialogClose } from "../ui/Dialog";
import { fieldLabel, issueText, labelSections, recordLink, recordName } from "./rejectedText";
import styles from "./RejectedChanges.module.css";

export interface RejectedChangesPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The workspace whose refused changes are listed. */
  workspaceId: string | undefined;
  /** Refused changes on this device in every workspace (the badge's count). */
  total: number;
}

/** The panel for a given workspace (the tests' entry). */
export function RejectedChangesPanel({ open, onOpenChange, workspaceId, total }: RejectedChangesPanelProps) {
  const { t, i18n } = useTranslation();
  const db = useClientDb();
  const rejected = useWorkspaceRejected(workspaceId);
  // The field labels live in the screens' locale sections: load those of the listed records.
  const sections = useMemo(() => labelSections(new Set((rejected ?? []).map((r) => r.collection))).join(","), [rejected]);
  const [, labelsLoaded] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    let live = true;
    if (sections === "") return;
    // Offline before a section was cached, the field names show as they are.
    const done = () => {
      if (live) labelsLoaded();
    };
    ensureSections(i18n, sections.split(",")).then(done, done);
    return () => {
      live = false;
    };
  }, [i18n, sections]);

  const others = rejected === undefined ? 0 : Math.max(0, total - rejected.length);
  const [confirmAll, setConfirmAll] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const [allFailed, setAllFailed] = useState(false);
  const count = rejected?.length ?? 0;
  async function discardAll() {
    if (db === null || rejected === undefined) return;
    setDiscarding(true);
    setAllFailed(false);
    let failed = false;
    for (const r of rejected) {
      try {
        await db.discardRejected(r.mutationId);
      } catch {
        // Gone meanwhile (fixed or discarded in another tab) or the device failed: the rest go on.
        failed = true;
      }
    }
    setDiscarding(false);
    setConfirmAll(false);
    // What is still listed afterwards says which could not be discarded.
    setAllFailed(failed && (await db.rejected(workspaceId)).length > 0);
  }
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="lg"
      title={t("sync.rejectedChanges.title")}
      description={t("sync.rejectedChanges.intro")}
      data-testid="rejected-changes"
      footer={
        <>
          {count >= 2 && !confirmAll && (
            <Button variant="danger-outline" onClick={() => setConfirmAll(true)}>
              {t("sync.rejectedChanges.discardAll")}
            </Button>
          )}
          <DialogClose>
            <Button variant="secondary">{t("sync.rejectedChanges.close")}</Button>
          </DialogClose>
        </>
      }
    >
      {confirmAll && count >= 2 && (
        <div className={styles.confirm} role="group" aria-labelledby="rejected-discard-all">
          <p id="rejected-discard-all">{t("sync.rejectedChanges.discardAllQuestion", { count })}</p>
          <div className={styles.actions}>
            <Button size="sm" variant="secondary" disabled={discarding} onClick={() => setConfirmAll(false)} autoFocus>
              {t("sync.rejectedChanges.discardAllCancel")}
            </Button>
            <Button size="sm" variant="danger" loading={discarding} onClick={() => void discardAll()}>
              {t("sync.rejectedChanges.discardAllConfirm", { count })}
            </Button>
          </div>
        </div>
      )}
      {allFailed && <Alert tone="error">{t("sync.rejectedChanges.failed")}</Alert>}
      {rejected === undefined || db === null ? (
        <p className={styles.muted}>{t("sync.rejectedChanges.loading")}</p>
      ) : rejected.length === 0 ? (
        <p className={styles.muted} data-testid="rejected-empty">
          {t("sync.rejectedChanges.empty")}
        </p>
      ) : (
        <ul className={styles.list}>
          {rejected.map((r) => (
            <RejectedEntry key={r.mutationId} db={db} change={r} onNavigate={() => onOpenChange(false)} />
          ))}
        </ul>
      )}
      {others > 0 && (
        <p className={styles.muted} data-testid="rejected-elsewhere">
          {t("sync.rejectedChanges.otherWorkspaces", { count: others })}
        </p>
      )}
    </Dialog>
  );
}

/** What the change was: created, which fields changed, deleted, restored, a conflict closed. */
function useChangeText(change: RejectedView): string {
  const { t } = useTranslation();
  if (change.op === "delete") return t("sync.rejectedChanges.op.delete");
  if (change.op === "restore") return t("sync.rejectedChanges.op.restore");
  if (change.op === "resolve") return t("sync.rejectedChanges.op.resolve");
  if (change.created) return t("sync.rejectedChanges.op.create");
  const tt = t as unknown as (key: string, options?: Record<string, unknown>) => string;
  const fields = Object.keys(change.fields ?? {}).map((f) => fieldLabel(tt, change.collection, f));
  if (fields.length === 0) return t("sync.rejectedChanges.op.put");
  return t("sync.rejectedChanges.op.fields", { fields: fields.join(", "), count: fields.length });
}

function RejectedEntry({ db, change, onNavigate }: { db: ClientDb; change: RejectedView; onNavigate: () => void }) {
  const { t, i18n } = useTranslation();
  const f = useFormatters();
  const record = useRecordById(change.collection, change.recordId);
  const [busy, setBusy] = useState<"discard" | "retry" | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const what = useChangeText(change);

  const fields = (record?.fields as Record<string, unknown> | undefined) ?? change.fields;
  const name = recordName(change.collection, fields);
  const kind = t(`sync.rejectedChanges.collection.${change.collection}`);
  // A link while the record is shown (not while deleted, or gone: a refused create discarded).
  const link = record && !record.deleted ? recordLink(change.collection, change.recordId, fields) : undefined;
  const reasons = change.issues.length > 0 ? change.issues.map((issue) => issueText(i18n, change.collection, change.code, issue)) : [issueText(i18n, change.collection, change.code, { path: "", key: "", params: {}, message: "" })];

  async function act(which: "discard" | "retry") {
    setBusy(which);
    setFailure(null);
    try {
      const result = which === "discard" ? await db.discardRejected(change.mutationId) : await db.retryRejected(change.mutationId);
      if (!result.ok) setFailure(t("sync.rejectedChanges.retryInvalid", { reasons: issuesText(result.issues) }));
    } catch {
      setFailure(t("sync.rejectedChanges.failed"));
    } finally {
      setBusy(null);
    }
  }

  function issuesText(issues: Issue[]): string {
    return issues.map((issue) => issueText(i18n, change.collection, "invalid", { ...issue, message: "" })).join("; ");
  }

  return (
    <li className={styles.entry} data-testid="rejected-change" data-op={change.op}>
      <div className={styles.head}>
        <span className={styles.kind}>{kind}</span>
        {/* While the record loads, no "unnamed" that its name then replaces. */}
        {(name !== undefined || record !== undefined) && <span className={styles.name}>{name ?? t("sync.rejectedChanges.unnamed")}</span>}
      </div>
      <p className={styles.what}>{what}</p>
      <ul className={styles.reasons} aria-label={t("sync.rejectedChanges.reason")}>
        {reasons.map((text, i) => (
          <li key={i}>{text}</li>
        ))}
      </ul>
      <p className={styles.muted}>{t("sync.rejectedChanges.when", { time: f.date(new Date(change.rejectedAt), { dateStyle: "short", timeStyle: "short" }) })}</p>
      {failure !== null && <Alert tone="error">{failure}</Alert>}
      <div className={styles.actions}>
        {link && (
          <Link {...link} className={buttonClass({ variant: "ghost", size: "sm" })} onClick={onNavigate}>
            {t("sync.rejectedChanges.open")}
          </Link>
        )}
        <Button size="sm" variant="secondary" loading={busy === "retry"} disabled={busy === "discard"} onClick={() => void act("retry")} aria-label={t("sync.rejectedChanges.retryLabel", { what: name ?? kind })}>
          {t("sync.rejectedChanges.retry")}
        </Button>
        <Button size="sm" variant="danger-outline" loading={busy === "discard"} disabled={busy === "retry"} onClick={() => void act("discard")} aria-label={t("sync.rejectedChanges.discardLabel", { what: name ?? kind })}>
          {t("sync.rejectedChanges.discard")}
        </Button>
      </div>
    </li>
  );
}

/** The panel for the active workspace (the one the top bar's switcher shows). */
export function RejectedChanges({ open, onOpenChange, total }: Omit<RejectedChangesPanelProps, "workspaceId">) {
  const { workspaceId } = useAssetWorkspace();
  return <RejectedChangesPanel open={open} onOpenChange={onOpenChange} workspaceId={workspaceId} total={total} />;
}

export default RejectedChanges;
