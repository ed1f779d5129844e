// Rotate the vault key (pwa/src/vault/rotate.ts): a new random key under a new passphrase, every
// login sealed again with it and the old keys wrapped under the new passphrase, in one transaction
// or not at all. For a leaked passphrase or a member removed who knew it: a passphrase change alone
// leaves the same key in old copies (another device, the server's change log), which the old
// passphrase still opens. The dialog says so, and what the old passphrase can still read. Owners
// and editors only (the screen offers it to them alone; rotateVault refuses a viewer too).
import { useClientDb, type ConflictView } from "@patrimonio/clientdb";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { rotateVault, vaultSession, VaultRotationError, WrongPassphraseError, wrappingsOf } from "../../vault";
import type { VaultKeyRec } from "./hooks";
import styles from "./logins.module.css";
import { PassphraseChangeFields, usePassphraseChange } from "./PassphraseChangeFields";

interface Props {
  workspaceId: string;
  keys: VaultKeyRec[];
  /** The vault key records' conflicts (losing wrappings). */
  conflicts: readonly ConflictView[];
  canEdit: boolean;
  onClose: () => void;
}

export function RotateKeyDialog({ workspaceId, keys, conflicts, canEdit, onClose }: Props) {
  const { t } = useTranslation();
  const db = useClientDb();
  const formId = useId();
  const form = usePassphraseChange();
  const { current, next, errors, setErrors, text } = form;
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = form.check();
    if (!found.passphrase && current !== "" && current.normalize("NFC") === next.normalize("NFC")) found.passphrase = "vault.rotate.samePassphrase";
    setErrors(found);
    if (Object.keys(found).length > 0 || !db) return;
    setBusy(true);
    try {
      const done = await rotateVault({ db, session: vaultSession, workspaceId, wrappings: wrappingsOf(keys, conflicts), current, next, canEdit });
      notify("success", done.left > 0 ? t("vault.rotate.doneLeft", { count: done.left }) : t("vault.rotate.done"));
      onClose();
    } catch (err) {
      if (err instanceof WrongPassphraseError) setErrors({ current: "vault.errors.wrong" });
      else setErrors({ other: err instanceof VaultRotationError ? "vault.rotate.failed" : "vault.errors.unavailable" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      dirty={form.dirty}
      open
      onOpenChange={(open) => !open && !busy && onClose()}
      size="md"
      title={t("vault.rotate.title")}
      description={t("vault.rotate.text")}
      data-testid="vault-rotate"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={busy} loadingText={t("vault.rotate.working")} data-testid="vault-rotate-submit">
            {t("vault.rotate.submit")}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.vaultForm} noValidate onSubmit={(e) => void submit(e)}>
        <p className={styles.changeNote} data-testid="vault-rotate-when">
          {t("vault.rotate.when")}
        </p>
        <p className={styles.changeNote} data-testid="vault-rotate-old">
          {t("vault.rotate.oldKeys")}
        </p>
        <PassphraseChangeFields form={form} />
        <Alert tone="warning">{t("vault.rotate.afterwards")}</Alert>
        {errors.other && <Alert tone="error">{text(errors.other)}</Alert>}
      </form>
    </Dialog>
  );
}
