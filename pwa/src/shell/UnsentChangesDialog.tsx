// Asked before signing out when this device holds changes the server does not have: edits not sent
// yet (the outbox) and edits the server refused (kept until fixed or discarded). Signing out wipes
// the device (auth/wipe.ts), so they would be lost for good. The counts are live: once the sync has
// sent everything, the dialog says so and signing out is safe. Loaded only when needed (the device
// database's code is loaded by then).
import { useSyncStatus } from "@patrimonio/clientdb";
import { useTranslation } from "react-i18next";
import { AlertDialog } from "../ui/Dialog";
import styles from "./UserMenu.module.css";

export interface UnsentCounts {
  pending: number;
  rejected: number;
}

export interface UnsentChangesDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The counts read when sign-out was chosen (until the live ones arrive). */
  initial: UnsentCounts;
  onConfirm: () => void;
  loading: boolean;
}

export function UnsentChangesDialog({ open, onOpenChange, initial, onConfirm, loading }: UnsentChangesDialogProps) {
  const { t } = useTranslation();
  const status = useSyncStatus();
  const pending = status?.pending ?? initial.pending;
  const rejected = status?.rejected ?? initial.rejected;
  const safe = pending === 0 && rejected === 0;
  return (
    <AlertDialog
      open={open}
      onOpenChange={onOpenChange}
      data-testid="unsent-changes"
      tone={safe ? "default" : "danger"}
      title={safe ? t("userMenu.unsent.safeTitle") : t("userMenu.unsent.title")}
      description={safe ? t("userMenu.unsent.safeText") : t("userMenu.unsent.text")}
      cancelLabel={t("userMenu.unsent.wait")}
      confirmLabel={safe ? t("userMenu.signOut") : t("userMenu.unsent.confirm")}
      confirmLoadingLabel={t("userMenu.signingOut")}
      loading={loading}
      onConfirm={onConfirm}
    >
      {!safe && (
        <>
          <ul className={styles.unsentList}>
            {pending > 0 && <li data-testid="unsent-pending">{t("userMenu.unsent.pending", { count: pending })}</li>}
            {rejected > 0 && <li data-testid="unsent-rejected">{t("userMenu.unsent.rejected", { count: rejected })}</li>}
          </ul>
          <p className={styles.unsentHint}>
            {pending === 0 ? t("userMenu.unsent.fixRejected") : status?.state === "offline" ? t("userMenu.unsent.offline") : t("userMenu.unsent.sending")}
          </p>
        </>
      )}
    </AlertDialog>
  );
}

export default UnsentChangesDialog;
