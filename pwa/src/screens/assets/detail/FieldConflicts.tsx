// Where a field is shown, the values of it that lost to a concurrent edit (sync kept them as
// conflicts): the losing value, whose device wrote it (assets/devices.ts) and when, and "Restaurar" (write it back,
// db.restoreConflict) or "Descartar" (keep the current value, db.dismissConflict). Both close the
// conflict on every device. Viewers see the note without the buttons.
import type { ConflictView } from "@patrimonio/clientdb";
import { GitMerge } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../../i18n/useFormatters";
import { useConflictAuthor } from "../../../assets/devices";
import { Button } from "../../../ui/Button";
import { useAssetDetail } from "./context";
import styles from "./detail.module.css";
import { useFieldLabel, useValueText } from "./fieldText";

export interface FieldConflictsProps {
  /** The asset fields this place shows; their conflicts are listed here. */
  fields: readonly string[];
  /** Resolves ids to names (the legal structure). */
  names?: Record<string, string>;
  /** The fields may be restored while the asset is disposed of (its disposal itself). */
  whileDisposed?: boolean;
}

export function FieldConflicts({ fields, names, whileDisposed = false }: FieldConflictsProps) {
  const { conflicts } = useAssetDetail();
  const mine = conflicts.filter((c) => fields.includes(c.field));
  if (mine.length === 0) return null;
  return (
    <ul className={styles.conflicts}>
      {mine.map((c) => (
        <ConflictNote key={c.id} conflict={c} names={names} whileDisposed={whileDisposed} />
      ))}
    </ul>
  );
}

function ConflictNote({ conflict, names, whileDisposed }: { conflict: ConflictView; names?: Record<string, string> | undefined; whileDisposed: boolean }) {
  const { t } = useTranslation();
  const detail = useAssetDetail();
  const { db, asset } = detail;
  const canEdit = whileDisposed ? detail.canManage : detail.canEdit;
  const fmt = useFormatters();
  const label = useFieldLabel();
  const valueText = useValueText(asset.fields.currency, names);
  const [busy, setBusy] = useState<"restore" | "dismiss" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const who = useConflictAuthor(asset.workspaceId, [conflict.author])(conflict.author);
  const when = Number.isNaN(conflict.at) ? "" : fmt.date(new Date(conflict.at), { dateStyle: "medium", timeStyle: "short" });

  async function act(kind: "restore" | "dismiss") {
    setBusy(kind);
    setError(null);
    try {
      const result = kind === "restore" ? await db.restoreConflict(conflict.id) : await db.dismissConflict(conflict.id);
      if (!result.ok) setError(t("assetDetail.conflicts.restoreInvalid"));
    } catch {
      setError(t("assetDetail.conflicts.gone"));
    } finally {
      setBusy(null);
    }
  }

  return (
    <li className={styles.conflict} data-testid="field-conflict" data-field={conflict.field}>
      <GitMerge size={16} aria-hidden="true" className={styles.conflictIcon} />
      <div className={styles.conflictText}>
        <p>
          <strong>{t("assetDetail.conflicts.title", { field: label(conflict.field) })}</strong>
        </p>
        <p>
          {t("assetDetail.conflicts.lost")}{" "}
          <span className={styles.conflictValue} data-testid="conflict-lost-value">
            {valueText(conflict.field, conflict.value)}
          </span>
        </p>
        <p className={styles.muted}>{t("assetDetail.conflicts.byWhen", { who, when })}</p>
        {error && (
          <p className={styles.error} role="alert">
            {error}
          </p>
        )}
      </div>
      {canEdit && (
        <div className={styles.conflictActions}>
          <Button size="sm" variant="secondary" loading={busy === "restore"} onClick={() => void act("restore")}>
            {t("assetDetail.conflicts.restore")}
          </Button>
          <Button size="sm" variant="ghost" loading={busy === "dismiss"} onClick={() => void act("dismiss")}>
            {t("assetDetail.conflicts.dismiss")}
          </Button>
        </div>
      )}
    </li>
  );
}
