// A login's notes for heirs, decrypted in memory to be read (owners, editors and viewers alike: the
// heirs a workspace is shared with are often viewers, and the notes are written for them). Shown
// only while the vault is unlocked: the screen closes it when the vault locks.
import { useTranslation } from "react-i18next";
import { Button } from "../../ui/Button";
import { Dialog, DialogClose } from "../../ui/Dialog";
import type { UnlockedVault } from "../../vault";
import { useOpened, type LoginRec } from "./hooks";
import styles from "./logins.module.css";

export function NotesDialog({ login, vault, onClose }: { login: LoginRec; vault: UnlockedVault; onClose: () => void }) {
  const { t } = useTranslation();
  const opened = useOpened(vault, login.workspaceId, login.id, "notes", login.fields.notes);
  const text =
    opened === undefined ? "—" : opened.state === "open" ? opened.text : opened.state === "failed" ? t("logins.secret.unreadable") : t("logins.notes.opening");
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      size="md"
      title={t("logins.notes.title", { name: login.fields.institution })}
      data-testid="login-notes-dialog"
      footer={
        <DialogClose>
          <Button variant="secondary">{t("vault.sheet.close")}</Button>
        </DialogClose>
      }
    >
      <p className={styles.notesText} data-testid="login-notes-text">
        {text}
      </p>
    </Dialog>
  );
}
