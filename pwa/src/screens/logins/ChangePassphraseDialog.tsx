// Change the vault passphrase: the current one opens the wrapped key(s), which are wrapped again with
// the new one (new salt), all in one transaction: either every key the current passphrase opens takes
// the new one, or (one refused, the device failing halfway) none does, so the vault never ends up
// split between two passphrases. No login is rewritten; the other devices and members need the new
// passphrase from the next unlock on. A wrapping a concurrent passphrase change left as conflicts
// counts: whoever knows only the passphrase of the change that lost can still change it.
import { saveVaultKey, useClientDb, type ConflictView } from "@patrimonio/clientdb";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { rewrapVaultKeyKeepingKek, vaultSession, WrongPassphraseError, wrappingsOf, type Kek } from "../../vault";
import type { VaultKeyRec } from "./hooks";
import styles from "./logins.module.css";
import { PassphraseChangeFields, usePassphraseChange } from "./PassphraseChangeFields";

/** A key record the change could not write (gone meanwhile): the whole change is undone. */
class RewrapRefused extends Error {}

interface Props {
  workspaceId: string;
  keys: VaultKeyRec[];
  /** The vault key records' conflicts (losing wrappings). */
  conflicts: readonly ConflictView[];
  onClose: () => void;
}

export function ChangePassphraseDialog({ workspaceId, keys, conflicts, onClose }: Props) {
  const { t } = useTranslation();
  const db = useClientDb();
  const formId = useId();
  const form = usePassphraseChange();
  const { current, next, errors, setErrors, text } = form;
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = form.check();
    setErrors(found);
    if (Object.keys(found).length > 0 || !db) return;
    setBusy(true);
    try {
      // Every key record the current passphrase opens (through its own wrapping or a losing one)
      // gets the new one; none opening = wrong passphrase.
      const rewrapped = new Map<string, Awaited<ReturnType<typeof rewrapVaultKeyKeepingKek>>>();
      for (const w of wrappingsOf(keys, conflicts)) {
        if (rewrapped.has(w.id)) continue;
        try {
          rewrapped.set(w.id, await rewrapVaultKeyKeepingKek(w.fields, current, next, workspaceId));
        } catch (err) {
          if (!(err instanceof WrongPassphraseError)) throw err;
        }
      }
      if (rewrapped.size === 0) {
        setErrors({ current: "vault.errors.wrong" });
        return;
      }
      await db.batch(async () => {
        for (const [id, r] of rewrapped) {
          const saved = await saveVaultKey(db, workspaceId, r.record, id);
          if (!saved.ok) throw new RewrapRefused();
        }
      });
      // This session holds the new wrappings (so a concurrent change that wins is told as such).
      const kek: Kek = [...rewrapped.values()][0]!.kek;
      vaultSession.rewrapped(workspaceId, new Map([...rewrapped].map(([id, r]) => [id, r.record.wrappedKey])), { kek });
      notify("success", t("vault.change.done"));
      onClose();
    } catch (err) {
      setErrors({ other: err instanceof RewrapRefused ? "vault.change.failed" : "vault.errors.unavailable" });
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
      title={t("vault.change.title")}
      description={t("vault.change.text")}
      data-testid="vault-change"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={busy} loadingText={t("vault.change.working")} data-testid="vault-change-submit">
            {t("vault.change.submit")}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.vaultForm} noValidate onSubmit={(e) => void submit(e)}>
        <p className={styles.changeNote} data-testid="vault-change-old-copies">
          {t("vault.change.oldCopies")}
        </p>
        <PassphraseChangeFields form={form} />
        {errors.other && <Alert tone="error">{text(errors.other)}</Alert>}
      </form>
    </Dialog>
  );
}
