// Opening the vault with a passphrase: the lock screen's form (VaultPanel) and the notice that the
// key was rotated on another device (VaultNotices) ask for it the same way. Empty: "required"; a
// lock or sign-out while the key is derived: nothing to say; wrong: "wrong"; else "unavailable".
import type { ConflictView } from "@patrimonio/clientdb";
import { useEffect, useState, type FormEvent, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import { UnlockCancelledError, vaultSession, WrongPassphraseError, wrappingsOf } from "../../vault";
import type { VaultKeyRec } from "./hooks";

export function useUnlock(
  workspaceId: string,
  keys: VaultKeyRec[],
  conflicts: readonly ConflictView[],
  options: {
    /** Called once the vault is open. */
    onUnlocked?: () => void;
    /** The passphrase field: a refusal puts focus back on it, which then names the error. */
    input?: RefObject<HTMLInputElement | null>;
  } = {},
) {
  const { t } = useTranslation();
  const [passphrase, setPassphrase] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const input = options.input;
  useEffect(() => {
    if (!error) return;
    input?.current?.focus();
    input?.current?.select();
  }, [error, input]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (passphrase === "") {
      setError(t("vault.errors.required"));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await vaultSession.unlock(workspaceId, wrappingsOf(keys, conflicts), passphrase);
      setPassphrase("");
      options.onUnlocked?.();
    } catch (err) {
      // Locked (or signed out) meanwhile: nothing to say, the vault stays locked.
      if (err instanceof UnlockCancelledError) return;
      setError(err instanceof WrongPassphraseError ? t("vault.errors.wrong") : t("vault.errors.unavailable"));
    } finally {
      setBusy(false);
    }
  };
  return { passphrase, setPassphrase, error, busy, submit };
}
