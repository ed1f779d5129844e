// Rotate the vault key (pwa/src/vault/rotate.ts): a new random key under a new passphrase, every
// login sealed again with it and the old keys wrapped under the new passphrase, in one transaction
// or not at all. For a leaked passphrase or a member removed who knew it: a passphrase change alone
// leaves the same key in old copies (another device, the server's change log), which the old
// passphrase still opens. The dialog says so, and what the old passphrase can still read. Owners
// and editors only (the screen offers it to them alone; rotateVault refuses a viewer too).
import { useClientDb, type ConflictView } from "@patrimonio/clientdb";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { rotateVault, vaultSession, VAULT_PASSPHRASE_MAX, VAULT_PASSPHRASE_MIN, VaultRotationError, WrongPassphraseError, wrappingsOf } from "../../vault";
import type { VaultKeyRec } from "./hooks";
import styles from "./logins.module.css";
import { checkNewPassphrase, StrengthHint } from "./VaultPanel";
import { NOT_FOR_PASSWORD_MANAGERS } from "./notForPasswordManagers";

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
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ current?: string; passphrase?: string; repeat?: string; other?: string }>({});
  const [busy, setBusy] = useState(false);
  const currentRef = useRef<HTMLInputElement>(null);
  const nextRef = useRef<HTMLInputElement>(null);
  const repeatRef = useRef<HTMLInputElement>(null);
  // A refused passphrase: focus on its field, which then names the error (aria-describedby).
  useEffect(() => {
    const field = (errors.current ? currentRef : errors.passphrase ? nextRef : errors.repeat ? repeatRef : undefined)?.current;
    field?.focus();
    field?.select();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = { ...checkNewPassphrase(next, repeat), ...(current === "" ? { current: "vault.errors.required" } : {}) };
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

  const text = (key: string | undefined) => (key ? t(key as never, { min: VAULT_PASSPHRASE_MIN, max: VAULT_PASSPHRASE_MAX }) : undefined);

  return (
    <Dialog
      dirty={current !== "" || next !== "" || repeat !== ""}
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
        <Field label={t("vault.change.current")} error={text(errors.current)} required>
          <TextInput ref={currentRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} data-autofocus="" value={current} onChange={(e) => setCurrent(e.target.value)} data-testid="vault-current-passphrase" />
        </Field>
        <Field label={t("vault.change.next")} hint={<StrengthHint passphrase={next} />} error={text(errors.passphrase)} required>
          <TextInput ref={nextRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={next} onChange={(e) => setNext(e.target.value)} data-testid="vault-new-passphrase" />
        </Field>
        <Field label={t("vault.setup.repeat")} error={text(errors.repeat)} required>
          <TextInput ref={repeatRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={repeat} onChange={(e) => setRepeat(e.target.value)} data-testid="vault-repeat-passphrase" />
        </Field>
        <Alert tone="warning">{t("vault.rotate.afterwards")}</Alert>
        {errors.other && <Alert tone="error">{text(errors.other)}</Alert>}
      </form>
    </Dialog>
  );
}
