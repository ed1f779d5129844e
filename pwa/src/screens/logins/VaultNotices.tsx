// What an unlocked vault must tell about its keys (pwa/src/vault/wrappings.ts, vaultNotices):
// - a passphrase change here that lost to a concurrent one: the other device's passphrase is the
//   vault's now; the one typed here opened it from the kept change. An editor may keep it.
// - a passphrase change elsewhere that lost to this one: it still opens the vault until an editor
//   dismisses it.
// - the passphrase changed elsewhere since this session opened the vault: the next unlock needs it.
// - a second key (a concurrent set-up under another passphrase): its logins do not open; its
//   passphrase joins it (editors: wrapped again under this session's passphrase, which then opens
//   both; viewers: opened for this session only). A rotation made at the same time elsewhere is
//   one too, of the same generation.
// - the key was rotated elsewhere (a key of a higher generation this session cannot open): what is
//   saved here still uses the old key; the new passphrase opens the vault again with the new one.
//   Never joined: that would wrap the new key under the old passphrase.
import { saveVaultKey, useClientDb, type ConflictView } from "@patrimonio/clientdb";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { formatDate } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import {
  joinVaultKey,
  unwrapVaultKey,
  vaultNotices,
  vaultSession,
  WrongPassphraseError,
  type UnlockedVault,
  type VaultNotice,
} from "../../vault";
import type { VaultKeyRec } from "./hooks";
import styles from "./logins.module.css";
import { useUnlock } from "./useUnlock";
import { NOT_FOR_PASSWORD_MANAGERS } from "./notForPasswordManagers";

interface Props {
  workspaceId: string;
  keys: VaultKeyRec[];
  conflicts: readonly ConflictView[];
  vault: UnlockedVault;
  canEdit: boolean;
}

export function VaultNotices({ workspaceId, keys, conflicts, vault, canEdit }: Props) {
  const notices = vaultNotices(keys, conflicts, vault);
  if (notices.length === 0) return null;
  return (
    <>
      {notices.map((n) =>
        n.kind === "rotated" ? (
          <Rotated key={`${n.kind}|${n.recordId}`} workspaceId={workspaceId} keys={keys} conflicts={conflicts} />
        ) : (
          <Notice key={`${n.kind}|${n.recordId}`} notice={n} workspaceId={workspaceId} vault={vault} canEdit={canEdit} />
        ),
      )}
    </>
  );
}

function Notice({ notice, workspaceId, vault, canEdit }: { notice: VaultNotice; workspaceId: string; vault: UnlockedVault; canEdit: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const db = useClientDb();
  const [busy, setBusy] = useState(false);
  const when = (at: number) => (Number.isFinite(at) ? formatDate(new Date(at), language, { dateStyle: "medium", timeStyle: "short" }) : "—");
  const settle = async (run: () => Promise<{ ok: boolean }[]>, done: string) => {
    setBusy(true);
    try {
      const results = await run();
      notify(results.every((r) => r.ok) ? "success" : "error", results.every((r) => r.ok) ? done : t("vault.concurrent.failed"));
    } catch {
      notify("error", t("vault.concurrent.failed"));
    } finally {
      setBusy(false);
    }
  };
  switch (notice.kind) {
    case "lost":
      return (
        <Alert tone="warning" title={t("vault.concurrent.lostTitle")}>
          <div className={styles.vaultNotice} data-testid="vault-concurrent-lost">
            <p>
              {t("vault.concurrent.lostText", { when: when(notice.at) })}
              {canEdit && ` ${t("vault.concurrent.lostKeep")}`}
            </p>
            {canEdit && db && (
              <div>
                <Button
                  size="sm"
                  variant="secondary"
                  loading={busy}
                  onClick={() => void settle(async () => [await db.restoreWrite("vaultKeys", notice.recordId, notice.stamp)], t("vault.concurrent.kept"))}
                  data-testid="vault-keep-mine"
                >
                  {t("vault.concurrent.keepMine")}
                </Button>
              </div>
            )}
          </div>
        </Alert>
      );
    case "won":
      return (
        <Alert tone="info" title={t("vault.concurrent.wonTitle")}>
          <div className={styles.vaultNotice} data-testid="vault-concurrent-won">
            <p>{t("vault.concurrent.wonText", { when: when(notice.at) })}</p>
            {canEdit && db && (
              <div>
                <Button
                  size="sm"
                  variant="secondary"
                  loading={busy}
                  onClick={() =>
                    void settle(async () => {
                      const out = [];
                      for (const stamp of notice.stamps) out.push(await db.dismissWrite("vaultKeys", notice.recordId, stamp));
                      return out;
                    }, t("vault.concurrent.dismissed"))
                  }
                  data-testid="vault-dismiss-other"
                >
                  {t("vault.concurrent.dismissOther")}
                </Button>
              </div>
            )}
          </div>
        </Alert>
      );
    case "changed":
      return (
        <Alert tone="info" title={t("vault.changedElsewhere.title")}>
          <span data-testid="vault-changed-elsewhere">{t("vault.changedElsewhere.text")}</span>
        </Alert>
      );
    case "otherKey":
      return <OtherKey notice={notice} workspaceId={workspaceId} vault={vault} canEdit={canEdit} />;
    case "rotated":
      return null;
  }
}

/** The key was rotated elsewhere: the new passphrase opens the vault again (every wrapping, the
 * new key included), so this session writes with the new key. */
function Rotated({ workspaceId, keys, conflicts }: { workspaceId: string; keys: VaultKeyRec[]; conflicts: readonly ConflictView[] }) {
  const { t } = useTranslation();
  const { passphrase, setPassphrase, error, busy, submit } = useUnlock(workspaceId, keys, conflicts, { onUnlocked: () => notify("success", t("vault.rotated.done")) });
  return (
    <Alert tone="warning" title={t("vault.rotated.title")}>
      <div className={styles.vaultNotice} data-testid="vault-rotated-elsewhere">
        <p>{t("vault.rotated.text")}</p>
        <form className={styles.vaultForm} noValidate onSubmit={(e) => void submit(e)}>
          <Field label={t("vault.rotated.passphrase")} error={error} required>
            <TextInput type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-testid="vault-rotated-passphrase" />
          </Field>
          <div>
            <Button type="submit" size="sm" variant="secondary" loading={busy} loadingText={t("vault.rotated.working")} data-testid="vault-rotated-unlock">
              {t("vault.rotated.submit")}
            </Button>
          </div>
        </form>
      </div>
    </Alert>
  );
}

function OtherKey({
  notice,
  workspaceId,
  vault,
  canEdit,
}: {
  notice: Extract<VaultNotice, { kind: "otherKey" }>;
  workspaceId: string;
  vault: UnlockedVault;
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const db = useClientDb();
  const formId = useId();
  const [passphrase, setPassphrase] = useState("");
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  // Joined (written under this session's passphrase) by an editor whose session knows its wrapping
  // key; otherwise opened for this session only.
  const joins = canEdit && db !== null && vault.kek !== undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (passphrase === "") {
      setError(t("vault.errors.required"));
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      if (joins) {
        const joined = await joinVaultKey(notice.record, passphrase, vault.kek!, workspaceId);
        const saved = await saveVaultKey(db!, workspaceId, joined.record, notice.recordId);
        if (!saved.ok) {
          setError(t("vault.concurrent.failed"));
          return;
        }
        vaultSession.rewrapped(workspaceId, new Map([[notice.recordId, joined.record.wrappedKey]]), { key: joined.key });
        notify("success", t("vault.otherKey.joined"));
      } else {
        const key = await unwrapVaultKey(notice.record, passphrase, workspaceId);
        vaultSession.rewrapped(workspaceId, new Map([[notice.recordId, notice.record.wrappedKey]]), { key });
        notify("success", t("vault.otherKey.opened"));
      }
      setPassphrase("");
    } catch (err) {
      setError(err instanceof WrongPassphraseError ? t("vault.errors.wrong") : t("vault.errors.unavailable"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Alert tone="warning" title={t("vault.otherKey.title")}>
      <div className={styles.vaultNotice} data-testid="vault-other-key">
        <p>
          {notice.rotation ? t("vault.otherKey.rotationText") : t("vault.otherKey.text")} {joins ? t("vault.otherKey.joinHint") : t("vault.otherKey.openHint")}
        </p>
        <form id={formId} className={styles.vaultForm} noValidate onSubmit={(e) => void submit(e)}>
          <Field label={t("vault.otherKey.passphrase")} error={error} required>
            <TextInput type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-testid="vault-other-passphrase" />
          </Field>
          <div>
            <Button type="submit" size="sm" variant="secondary" loading={busy} loadingText={t("vault.otherKey.working")} data-testid="vault-join">
              {joins ? t("vault.otherKey.join") : t("vault.otherKey.open")}
            </Button>
          </div>
        </form>
      </div>
    </Alert>
  );
}
