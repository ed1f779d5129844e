// /logins: the logins vault, end-to-end encrypted (pwa/src/vault). Locked by default: the list shows
// institutions, addresses, user names and linked assets, never a secret. Unlocked (the vault
// passphrase, for this tab's session; it locks again after 5 idle minutes and at sign-out), a
// secret can be revealed or copied and the notes for heirs read (viewers too), and owners and editors add, edit and delete logins, change the
// passphrase (re-wraps the key only) and print the emergency sheet for heirs. Viewers unlock to read
// and cannot write (the server refuses their writes too). Everything reads and writes the device
// database, so it works offline and syncs.
import { deleteLogin, useClientDb } from "@patrimonio/clientdb";
import { Copy, Eye, EyeOff, FileText, KeyRound, NotebookText, Pencil, Plus, RefreshCw, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useAssets, useAssetWorkspace } from "../../assets/hooks";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button, IconButton } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { DataTable, type DataTableColumn } from "../../ui/DataTable";
import { AlertDialog } from "../../ui/Dialog";
import { MenuItem } from "../../ui/DropdownMenu";
import { EmptyState } from "../../ui/EmptyState";
import { PageHeader } from "../../ui/PageHeader";
import { Skeleton } from "../../ui/Skeleton";
import { CLIPBOARD_CLEAR_MS, copySecret, useVault, type UnlockedVault } from "../../vault";
import page from "../page.module.css";
import { ChangePassphraseDialog } from "./ChangePassphraseDialog";
import { RotateKeyDialog } from "./RotateKeyDialog";
import { EmergencySheet } from "./EmergencySheet";
import { openLoginField, useLogins, useOpened, useVaultKeyConflicts, useVaultKeys, type LoginRec } from "./hooks";
import { LoginFormDialog } from "./LoginFormDialog";
import { NotesDialog } from "./NotesDialog";
import styles from "./logins.module.css";
import { SecretConflicts } from "./SecretConflicts";
import { VaultPanel } from "./VaultPanel";

const NO_VALUE = "—";

type Editing = { login: LoginRec; secret?: string | undefined; notes?: string | undefined } | "new" | null;

export function LoginsScreen() {
  const { t } = useTranslation();
  const db = useClientDb();
  const workspace = useAssetWorkspace();
  const workspaceId = workspace.workspaceId;
  const logins = useLogins(workspaceId);
  const keys = useVaultKeys(workspaceId);
  const keyConflicts = useVaultKeyConflicts(workspaceId);
  const assets = useAssets();
  const vault = useVault(workspaceId);
  const canEdit = workspace.canEdit;
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<LoginRec | null>(null);
  const [deleteBusy, setDeleteBusy] = useState(false);
  const [changing, setChanging] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [sheet, setSheet] = useState(false);
  // The login whose notes are being read (its id: the dialog follows the record as it syncs).
  const [reading, setReading] = useState<string | null>(null);
  // Locked: what an open vault let the screen hold goes (the decrypted secret and notes of a login
  // being edited, the notes being read, the passphrases typed into the change dialog); unlocking
  // again does not bring it back.
  if (!vault && (editing !== null || reading !== null || changing || rotating)) {
    setEditing(null);
    setReading(null);
    setChanging(false);
    setRotating(false);
  }
  const assetNames = useMemo(() => new Map((assets ?? []).map((a) => [a.id, a.fields.name])), [assets]);
  const sorted = useMemo(() => [...(logins ?? [])].sort((a, b) => a.fields.institution.localeCompare(b.fields.institution)), [logins]);

  const startEdit = async (login: LoginRec) => {
    if (!vault || !workspaceId) return;
    try {
      const [secret, notes] = await Promise.all(
        (["secret", "notes"] as const).map((f) => {
          const c = login.fields[f];
          return c === undefined ? Promise.resolve(undefined) : openLoginField(vault, workspaceId, login.id, f, c);
        }),
      );
      setEditing({ login, secret, notes });
    } catch {
      notify("error", t("logins.secret.unreadable"));
    }
  };

  const confirmDelete = async () => {
    if (!db || !deleting) return;
    setDeleteBusy(true);
    try {
      const result = await deleteLogin(db, deleting.id);
      if (!result.ok) {
        notify("error", t("logins.delete.failed"));
        return;
      }
      notify("success", t("logins.delete.done", { name: deleting.fields.institution }));
      setDeleting(null);
    } finally {
      setDeleteBusy(false);
    }
  };

  const columns: DataTableColumn<LoginRec>[] = [
    {
      id: "institution",
      header: t("logins.fields.institution"),
      width: "minmax(140px, 1.4fr)",
      sortValue: (r) => r.fields.institution,
      cell: (r) => (
        <span className={styles.cellText} data-testid="login-row-institution">
          {r.fields.institution}
        </span>
      ),
    },
    {
      id: "username",
      header: t("logins.fields.username"),
      sortValue: (r) => r.fields.username,
      cell: (r) => (
        <span className={styles.cellText} data-testid="login-row-username">
          {r.fields.username ?? NO_VALUE}
        </span>
      ),
    },
    {
      id: "secret",
      header: t("logins.fields.secret"),
      width: "minmax(170px, 1.3fr)",
      cell: (r) => (workspaceId ? <SecretCell login={r} vault={vault} /> : null),
    },
    {
      id: "notes",
      header: t("logins.fields.notes"),
      width: "minmax(110px, 0.7fr)",
      cell: (r) =>
        r.fields.notes === undefined ? (
          <span className={styles.muted}>{NO_VALUE}</span>
        ) : vault ? (
          <IconButton
            size="sm"
            label={t("logins.actions.notesFor", { name: r.fields.institution })}
            icon={<NotebookText size={16} />}
            onClick={() => setReading(r.id)}
            data-testid="login-notes-open"
          />
        ) : (
          <span className={styles.muted}>{t("logins.secret.locked")}</span>
        ),
    },
    {
      id: "url",
      header: t("logins.fields.url"),
      sortValue: (r) => r.fields.url,
      cell: (r) =>
        r.fields.url ? (
          <a href={r.fields.url} target="_blank" rel="noreferrer noopener" className={`${styles.nameLink} ${styles.cellText}`}>
            {r.fields.url}
          </a>
        ) : (
          <span>{NO_VALUE}</span>
        ),
    },
    {
      id: "asset",
      header: t("logins.fields.asset"),
      sortValue: (r) => (r.fields.assetId ? assetNames.get(r.fields.assetId) : undefined),
      cell: (r) => <span className={styles.cellText}>{(r.fields.assetId && assetNames.get(r.fields.assetId)) || NO_VALUE}</span>,
    },
  ];

  const rowActions = (r: LoginRec) =>
    canEdit ? (
      <>
        <MenuItem icon={<Pencil size={16} />} disabled={!vault} onSelect={() => void startEdit(r)}>
          {vault ? t("logins.actions.edit") : t("logins.actions.editLocked")}
        </MenuItem>
        <MenuItem icon={<Trash2 size={16} />} danger onSelect={() => setDeleting(r)}>
          {t("logins.actions.delete")}
        </MenuItem>
      </>
    ) : undefined;

  const readingLogin = reading === null ? undefined : sorted.find((l) => l.id === reading);
  const loading = logins === undefined || keys === undefined || keyConflicts === undefined || workspaceId === undefined;
  const hasVault = (keys?.length ?? 0) > 0;

  return (
    <div className={page.page} data-testid="logins-screen">
      <PageHeader
        title={t("logins.title")}
        subtitle={t("logins.subtitle")}
        actions={
          <div className={styles.actions}>
            {hasVault && (
              <Button variant="secondary" icon={<FileText size={16} />} onClick={() => setSheet(true)} data-testid="vault-sheet-open">
                {t("vault.sheet.open")}
              </Button>
            )}
            {canEdit && vault && (
              <Button variant="secondary" icon={<KeyRound size={16} />} onClick={() => setChanging(true)} data-testid="vault-change-open">
                {t("vault.change.open")}
              </Button>
            )}
            {canEdit && vault && (
              <Button variant="secondary" icon={<RefreshCw size={16} />} onClick={() => setRotating(true)} data-testid="vault-rotate-open">
                {t("vault.rotate.open")}
              </Button>
            )}
            {canEdit && vault && (
              <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing("new")} data-testid="login-new">
                {t("logins.add")}
              </Button>
            )}
          </div>
        }
      />
      {workspace.role === "viewer" && (
        <Alert tone="info" title={t("logins.readOnly.title")}>
          <span data-testid="read-only-notice">{t("logins.readOnly.viewer")}</span>
        </Alert>
      )}
      {loading ? (
        <div aria-busy="true" className={styles.sections}>
          <p className="visually-hidden" role="status">
            {t("logins.loading")}
          </p>
          <Skeleton shape="block" />
          <Skeleton lines={4} />
        </div>
      ) : (
        <div className={styles.sections}>
          <VaultPanel workspaceId={workspaceId} keys={keys} conflicts={keyConflicts ?? []} vault={vault} canEdit={canEdit} />
          {sorted.length === 0 ? (
            <EmptyState
              data-testid="logins-empty"
              icon={<KeyRound size={24} />}
              title={t("logins.empty.title")}
              text={canEdit ? t("logins.empty.text") : t("logins.empty.textViewer")}
            />
          ) : (
            <Card title={t("logins.list.title")} description={t("logins.list.count", { count: sorted.length })} padding="none" data-testid="logins-list">
              <DataTable
                label={t("logins.list.title")}
                rows={sorted}
                columns={columns}
                rowKey={(r) => r.id}
                rowLabel={(r) => r.fields.institution}
                {...(canEdit ? { rowActions } : {})}
                height={520}
              />
            </Card>
          )}
          {vault &&
            sorted
              .filter((l) => l.conflicts > 0)
              .map((l) => (
                <Card key={l.id} title={t("logins.conflict.card", { name: l.fields.institution })}>
                  <SecretConflicts login={l} field="secret" vault={vault} />
                  <SecretConflicts login={l} field="notes" vault={vault} />
                </Card>
              ))}
        </div>
      )}
      {editing !== null && db && workspaceId && vault && canEdit && (
        <LoginFormDialog
          key={editing === "new" ? "new" : editing.login.id}
          db={db}
          workspaceId={workspaceId}
          vault={vault}
          keys={keys ?? []}
          assets={assets ?? []}
          editing={editing === "new" ? undefined : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            notify("success", t("logins.form.saved"));
            setEditing(null);
          }}
        />
      )}
      {changing && vault && workspaceId && keys && <ChangePassphraseDialog workspaceId={workspaceId} keys={keys} conflicts={keyConflicts ?? []} onClose={() => setChanging(false)} />}
      {rotating && vault && workspaceId && keys && canEdit && (
        <RotateKeyDialog workspaceId={workspaceId} keys={keys} conflicts={keyConflicts ?? []} canEdit={canEdit} onClose={() => setRotating(false)} />
      )}
      {readingLogin && vault && <NotesDialog login={readingLogin} vault={vault} onClose={() => setReading(null)} />}
      {sheet && <EmergencySheet logins={sorted} assetNames={assetNames} onClose={() => setSheet(false)} />}
      <AlertDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && !deleteBusy && setDeleting(null)}
        title={t("logins.delete.title", { name: deleting?.fields.institution ?? "" })}
        description={t("logins.delete.text")}
        confirmLabel={t("logins.delete.confirm")}
        confirmLoadingLabel={t("logins.delete.deleting")}
        loading={deleteBusy}
        onConfirm={() => void confirmDelete()}
        data-testid="login-delete"
      />
    </div>
  );
}

/** The secret of one row: hidden while locked; unlocked, "Show" decrypts it in memory and "Copy"
 * puts it on the clipboard until 30 seconds later or the vault locks (copySecret). */
function SecretCell({ login, vault }: { login: LoginRec; vault: UnlockedVault | undefined }) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  // Shown again only on request after the vault locked and was unlocked again.
  if (shown && !vault) setShown(false);
  const ciphertext = login.fields.secret;
  const opened = useOpened(vault, login.workspaceId, login.id, "secret", ciphertext, shown);
  if (ciphertext === undefined) return <span className={styles.muted}>{NO_VALUE}</span>;
  if (!vault) {
    return (
      <span className={styles.muted} data-testid="login-secret-locked">
        {t("logins.secret.locked")}
      </span>
    );
  }
  const copy = async () => {
    try {
      const text = await openLoginField(vault, login.workspaceId, login.id, "secret", ciphertext);
      await copySecret(login.workspaceId, text);
      notify("success", t("logins.secret.copied", { seconds: CLIPBOARD_CLEAR_MS / 1000 }));
    } catch {
      notify("error", t("common.copyFailed"));
    }
  };
  const reveal = shown && opened ? (opened.state === "open" ? opened.text : opened.state === "failed" ? t("logins.secret.unreadable") : "…") : "••••••••";
  return (
    <span className={styles.secretCell}>
      <span className={`${styles.secretText} ${styles.cellText}`} data-testid="login-secret">
        {reveal}
      </span>
      <IconButton
        size="sm"
        // A toggle keeps its name; aria-pressed says whether it is shown (the icon changes for the eye).
        label={t("logins.actions.revealFor", { name: login.fields.institution })}
        icon={shown ? <EyeOff size={16} /> : <Eye size={16} />}
        aria-pressed={shown}
        onClick={() => setShown((s) => !s)}
        data-testid="login-reveal"
      />
      <IconButton
        size="sm"
        label={t("logins.actions.copyFor", { name: login.fields.institution })}
        icon={<Copy size={16} />}
        onClick={() => void copy()}
        data-testid="login-copy"
      />
    </span>
  );
}
