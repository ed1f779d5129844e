// A concurrent edit of an encrypted field that lost: the sync engine kept its ciphertext (opaque to
// it); here, with the vault unlocked, it is decrypted to be read, and "Restore" writes that very
// ciphertext back (it is bound to this record and field, so it still opens) or "Keep current" closes it.
import { useClientDb, type ConflictView } from "@patrimonio/clientdb";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRecordConflicts } from "../../assets/hooks";
import { formatDate } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import type { UnlockedVault } from "../../vault";
import { useOpened, type LoginRec } from "./hooks";
import styles from "./logins.module.css";

export function SecretConflicts({ login, field, vault }: { login: LoginRec; field: "secret" | "notes"; vault: UnlockedVault | undefined }) {
  const conflicts = useRecordConflicts(login.id);
  const list = (conflicts ?? []).filter((c) => c.field === field);
  return (
    <>
      {list.map((c) => (
        <OneSecretConflict key={c.id} conflict={c} login={login} vault={vault} />
      ))}
    </>
  );
}

function OneSecretConflict({ conflict, login, vault }: { conflict: ConflictView; login: LoginRec; vault: UnlockedVault | undefined }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const db = useClientDb();
  const [busy, setBusy] = useState(false);
  const value = typeof conflict.value === "string" ? conflict.value : undefined;
  const opened = useOpened(vault, login.workspaceId, login.id, conflict.field, value);
  const when = Number.isFinite(conflict.at) ? formatDate(new Date(conflict.at), language, { dateStyle: "medium", timeStyle: "short" }) : "";
  const act = async (restore: boolean) => {
    if (!db) return;
    setBusy(true);
    try {
      const r = restore ? await db.restoreConflict(conflict.id) : await db.dismissConflict(conflict.id);
      if (!r.ok) notify("error", t("logins.conflict.failed"));
    } finally {
      setBusy(false);
    }
  };
  const shown =
    value === undefined
      ? t("logins.conflict.cleared")
      : opened?.state === "open"
        ? opened.text
        : opened?.state === "failed"
          ? t("logins.secret.unreadable")
          : t("logins.secret.locked");
  return (
    <Alert tone="warning" title={t("logins.conflict.title", { when })}>
      <div className={styles.conflict} data-testid="login-conflict">
        <span className={styles.secretText} data-testid="login-conflict-value">
          {shown}
        </span>
        <Button size="sm" variant="secondary" disabled={busy || !vault} onClick={() => void act(true)}>
          {t("logins.conflict.restore")}
        </Button>
        <Button size="sm" variant="ghost" disabled={busy} onClick={() => void act(false)}>
          {t("logins.conflict.keep")}
        </Button>
      </div>
    </Alert>
  );
}
