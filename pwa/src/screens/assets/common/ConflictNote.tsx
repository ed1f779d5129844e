// Where a field is shown: the value a concurrent edit replaced (the losing value), who made it (this
// device, another of yours, a member's device: assets/devices.ts) and when, with "Restore" (write
// it back) and "Keep current" (close the conflict). Nothing when the field has no conflict.
import { useClientDb, type ConflictView, type JsonValue } from "@patrimonio/clientdb";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useConflictAuthor } from "../../../assets/devices";
import { useAssetWorkspace, useRecordConflicts } from "../../../assets/hooks";
import { formatDate } from "../../../i18n/format";
import { useLanguage } from "../../../i18n/useLanguage";
import { notify } from "../../../toast/toast";
import { Alert } from "../../../ui/Alert";
import { Button } from "../../../ui/Button";
import styles from "./common.module.css";

export interface ConflictNoteProps {
  recordId: string;
  field: string;
  /** How to show a value of this field (default: text, numbers as they are, yes/no, JSON for objects). */
  format?: (value: JsonValue) => string;
  /** The conflicts of the record, when the screen has read them already (saves a live query). */
  conflicts?: ConflictView[];
}

function defaultFormat(value: JsonValue, yes: string, no: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? yes : no;
  return JSON.stringify(value);
}

export function ConflictNote({ recordId, field, format, conflicts }: ConflictNoteProps) {
  const live = useRecordConflicts(conflicts ? undefined : recordId);
  const list = (conflicts ?? live ?? []).filter((c) => c.recordId === recordId && c.field === field);
  if (list.length === 0) return null;
  return (
    <>
      {list.map((c) => (
        <OneConflict key={c.id} conflict={c} format={format} />
      ))}
    </>
  );
}

function OneConflict({ conflict, format }: { conflict: ConflictView; format: ConflictNoteProps["format"] }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const db = useClientDb();
  const { canEdit } = useAssetWorkspace();
  const [busy, setBusy] = useState<"restore" | "keep" | null>(null);
  const who = useConflictAuthor(conflict.workspaceId, [conflict.author])(conflict.author);
  const when = Number.isFinite(conflict.at) ? formatDate(new Date(conflict.at), language, { dateStyle: "medium", timeStyle: "short" }) : "";
  const shown =
    conflict.value === null ? null : (format ?? ((v: JsonValue) => defaultFormat(v, t("assets.conflict.yes"), t("assets.conflict.no"))))(conflict.value);

  const act = async (kind: "restore" | "keep") => {
    if (!db) return;
    setBusy(kind);
    try {
      const r = kind === "restore" ? await db.restoreConflict(conflict.id) : await db.dismissConflict(conflict.id);
      if (!r.ok) notify("error", t("assets.conflict.failed"));
      else if (kind === "restore") notify("success", t("assets.conflict.restored"));
    } catch {
      notify("error", t("assets.conflict.failed"));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Alert tone="warning" title={t("assets.conflict.title")}>
      <div className={styles.conflict} data-testid="conflict-note" data-field={conflict.field}>
        <span>{shown === null ? t("assets.conflict.lostEmpty") : t("assets.conflict.lost", { value: shown })}</span>
        <span className={styles.muted}>{t("assets.conflict.by", { who, when })}</span>
        {canEdit && (
          <span className={styles.conflictActions}>
            <Button size="sm" variant="secondary" loading={busy === "restore"} disabled={busy !== null} onClick={() => void act("restore")}>
              {t("assets.conflict.restore")}
            </Button>
            <Button size="sm" variant="ghost" loading={busy === "keep"} disabled={busy !== null} onClick={() => void act("keep")}>
              {t("assets.conflict.keep")}
            </Button>
          </span>
        )}
      </div>
    </Alert>
  );
}
