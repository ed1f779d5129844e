// The vault's state at the top of /logins: set it up (first time: the passphrase twice, with
// strength guidance), unlock it (wrong passphrase: a clear message, nothing changes), or — unlocked —
// lock it again, with the idle time after which it locks itself. Viewers can unlock to read but
// never set up a vault. Set-up is offered only once this device holds the workspace (its first sync
// applied whole): before that, "no key yet" may only mean the workspace's vault key has not arrived,
// and a second set-up would split the logins between two passphrases. Unlocked, it says what a
// concurrent passphrase change or a second key (a concurrent set-up) means and offers to settle it
// (VaultNotices: pwa/src/vault/README.md, "Concurrent changes and second keys").
import { saveVaultKey, useClientDb, useDeletedRecords, useSyncStatus, useWorkspaceHeld, type ConflictView } from "@patrimonio/clientdb";
import { Lock, LockOpen, ShieldCheck } from "lucide-react";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import {
  createVaultKey,
  IDLE_LOCK_MS,
  passphraseStrength,
  vaultSession,
  VAULT_PASSPHRASE_MAX,
  VAULT_PASSPHRASE_MIN,
  wrappingsOf,
  type UnlockedVault,
} from "../../vault";
import { VaultNotices } from "./VaultNotices";
import type { VaultKeyRec } from "./hooks";
import styles from "./logins.module.css";
import { useUnlock } from "./useUnlock";
import { NOT_FOR_PASSWORD_MANAGERS } from "./notForPasswordManagers";

const IDLE_MINUTES = IDLE_LOCK_MS / 60_000;

interface Props {
  workspaceId: string;
  keys: VaultKeyRec[];
  /** The key records' conflicts: wrappings of passphrase changes that lost to concurrent ones. */
  conflicts: readonly ConflictView[];
  vault: UnlockedVault | undefined;
  canEdit: boolean;
}

/** The vault's state, and keyboard focus kept across its changes: unlocking or locking removes the
 * control that had focus (the Unlock button, the Lock button, a row's Show button); then focus goes
 * to the new state's first control (Lock, or the passphrase) instead of falling to the page. */
export function VaultPanel(props: Props) {
  const unlocked = props.vault !== undefined;
  const ref = useRef<HTMLDivElement>(null);
  const before = useRef(unlocked);
  useEffect(() => {
    if (before.current === unlocked) return;
    before.current = unlocked;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    ref.current?.querySelector<HTMLElement>("[data-vault-focus]")?.focus();
  }, [unlocked]);
  return (
    <div ref={ref} className={styles.vaultPanel}>
      <VaultState {...props} />
    </div>
  );
}

function VaultState({ workspaceId, keys, conflicts, vault, canEdit }: Props) {
  const { t } = useTranslation();
  // A key deleted before the server refused it: its logins cannot be read, and setting a new vault
  // up beside it would split them. It is restored instead (a vault key is never deleted).
  const deleted = useDeletedRecords("vaultKeys", workspaceId);
  const restore = deleted !== undefined && deleted.length > 0 ? <DeletedKeys keys={deleted} canEdit={canEdit} /> : null;
  if (vault) {
    return (
      <>
        <Card
          icon={<LockOpen size={20} />}
          title={t("vault.unlocked.title")}
          description={t("vault.unlocked.text", { minutes: IDLE_MINUTES })}
          data-testid="vault-unlocked"
          actions={
            <Button variant="secondary" icon={<Lock size={16} />} onClick={() => vaultSession.lock(workspaceId)} data-vault-focus="" data-testid="vault-lock">
              {t("vault.lock")}
            </Button>
          }
        />
        <VaultNotices workspaceId={workspaceId} keys={keys} conflicts={conflicts} vault={vault} canEdit={canEdit} />
        {restore}
      </>
    );
  }
  if (keys.length === 0) {
    if (deleted === undefined) return null;
    if (restore) return restore;
    if (!canEdit) {
      return <Alert tone="info" title={t("vault.none.title")}>{t("vault.none.viewer")}</Alert>;
    }
    return <SetUpOnceHeld workspaceId={workspaceId} />;
  }
  return (
    <>
      {restore}
      <Unlock workspaceId={workspaceId} keys={keys} conflicts={conflicts} />
    </>
  );
}

/** Vault keys deleted before the server refused it: editors restore them (no passphrase changes). */
function DeletedKeys({ keys, canEdit }: { keys: VaultKeyRec[]; canEdit: boolean }) {
  const { t } = useTranslation();
  const db = useClientDb();
  const [busy, setBusy] = useState(false);
  const restore = async () => {
    if (!db) return;
    setBusy(true);
    try {
      const results = await db.batch(async () => {
        const out = [];
        for (const k of keys) out.push(await db.restore("vaultKeys", k.id));
        return out;
      });
      notify(results.every((r) => r.ok) ? "success" : "error", results.every((r) => r.ok) ? t("vault.deleted.done") : t("vault.concurrent.failed"));
    } catch {
      notify("error", t("vault.concurrent.failed"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Alert tone="warning" title={t("vault.deleted.title")}>
      <div className={styles.vaultNotice} data-testid="vault-deleted-key">
        <p>
          {t("vault.deleted.text")} {canEdit ? t("vault.deleted.restoreHint") : t("vault.deleted.viewer")}
        </p>
        {canEdit && (
          <div>
            <Button size="sm" variant="secondary" loading={busy} onClick={() => void restore()} data-testid="vault-restore-key">
              {t("vault.deleted.restore")}
            </Button>
          </div>
        )}
      </div>
    </Alert>
  );
}

export function StrengthHint({ passphrase }: { passphrase: string }) {
  const { t } = useTranslation();
  if (passphrase === "") return <>{t("vault.strength.guide", { min: VAULT_PASSPHRASE_MIN })}</>;
  const s = passphraseStrength(passphrase);
  return (
    <span data-testid="vault-strength" data-strength={s}>
      {t(`vault.strength.${s}`, { min: VAULT_PASSPHRASE_MIN })}
    </span>
  );
}

/** Checks a new passphrase and its repetition; returns the error texts (empty when fine). */
export function checkNewPassphrase(passphrase: string, repeat: string): { passphrase?: string; repeat?: string } {
  if ([...passphrase].length < VAULT_PASSPHRASE_MIN) return { passphrase: "vault.errors.tooShort" };
  if ([...passphrase].length > VAULT_PASSPHRASE_MAX) return { passphrase: "vault.errors.tooLong" };
  if (passphrase !== repeat) return { repeat: "vault.errors.mismatch" };
  return {};
}

/** The set-up form, once the device holds the workspace; until then, why it waits. */
function SetUpOnceHeld({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const held = useWorkspaceHeld(workspaceId);
  const status = useSyncStatus();
  if (held === undefined) return null;
  if (held) return <SetUp workspaceId={workspaceId} />;
  return (
    <Alert tone="info" title={t("vault.notHeld.title")}>
      <span data-testid="vault-not-held">{status?.state === "offline" ? t("vault.notHeld.offline") : t("vault.notHeld.syncing")}</span>
    </Alert>
  );
}

function SetUp({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const db = useClientDb();
  const formId = useId();
  const [passphrase, setPassphrase] = useState("");
  const [repeat, setRepeat] = useState("");
  const [errors, setErrors] = useState<{ passphrase?: string; repeat?: string }>({});
  const [busy, setBusy] = useState(false);
  const passphraseRef = useRef<HTMLInputElement>(null);
  const repeatRef = useRef<HTMLInputElement>(null);
  // A refused passphrase: focus on its field, which then names the error (aria-describedby).
  useEffect(() => {
    (errors.passphrase ? passphraseRef : errors.repeat ? repeatRef : undefined)?.current?.focus();
  }, [errors]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = checkNewPassphrase(passphrase, repeat);
    setErrors(found);
    if (found.passphrase || found.repeat || !db) return;
    setBusy(true);
    try {
      const made = await createVaultKey(passphrase, workspaceId);
      const saved = await saveVaultKey(db, workspaceId, made.record);
      if (!saved.ok) {
        notify("error", t("vault.setup.failed"));
        return;
      }
      vaultSession.adopt(workspaceId, made.key, { id: saved.id, wrappedKey: made.record.wrappedKey, kek: made.kek });
      setPassphrase("");
      setRepeat("");
      notify("success", t("vault.setup.done"));
    } catch {
      notify("error", t("vault.setup.failed"));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card icon={<ShieldCheck size={20} />} title={t("vault.setup.title")} description={t("vault.setup.text")} data-testid="vault-setup">
      <form id={formId} className={styles.vaultForm} noValidate onSubmit={(e) => void submit(e)}>
        <Field label={t("vault.setup.passphrase")} hint={<StrengthHint passphrase={passphrase} />} error={errors.passphrase && t(errors.passphrase as never, { min: VAULT_PASSPHRASE_MIN, max: VAULT_PASSPHRASE_MAX })} required>
          <TextInput ref={passphraseRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-testid="vault-new-passphrase" />
        </Field>
        <Field label={t("vault.setup.repeat")} error={errors.repeat && t(errors.repeat as never)} required>
          <TextInput ref={repeatRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={repeat} onChange={(e) => setRepeat(e.target.value)} data-testid="vault-repeat-passphrase" />
        </Field>
        <Alert tone="warning">{t("vault.setup.warning")}</Alert>
        <div>
          <Button type="submit" variant="primary" loading={busy} loadingText={t("vault.setup.working")} data-testid="vault-create">
            {t("vault.setup.submit")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

function Unlock({ workspaceId, keys, conflicts }: { workspaceId: string; keys: VaultKeyRec[]; conflicts: readonly ConflictView[] }) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const { passphrase, setPassphrase, error, busy, submit } = useUnlock(workspaceId, keys, conflicts, { input: inputRef });

  return (
    <Card icon={<Lock size={20} />} title={t("vault.locked.title")} description={t("vault.locked.text")} data-testid="vault-locked">
      <form className={styles.vaultForm} noValidate onSubmit={(e) => void submit(e)}>
        {wrappingsOf(keys, conflicts).some((w) => w.lost !== undefined) && (
          <Alert tone="info">
            <span data-testid="vault-locked-concurrent">{t("vault.locked.concurrent")}</span>
          </Alert>
        )}
        <Field label={t("vault.passphrase")} error={error} required>
          <TextInput ref={inputRef} type="password" {...NOT_FOR_PASSWORD_MANAGERS} value={passphrase} onChange={(e) => setPassphrase(e.target.value)} data-vault-focus="" data-testid="vault-passphrase" />
        </Field>
        <div>
          <Button type="submit" variant="primary" icon={<LockOpen size={16} />} loading={busy} loadingText={t("vault.unlocking")} data-testid="vault-unlock">
            {t("vault.unlock")}
          </Button>
        </div>
      </form>
    </Card>
  );
}
