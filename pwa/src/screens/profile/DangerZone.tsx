// The profile's danger zone: deleting the account. The kit's AlertDialog says what goes and that it
// cannot be undone, and keeps its button disabled until the account's e-mail address is typed; then
// the server asks for a recent proof of identity (the re-verification dialog opens by itself). Once
// deleted, the device is wiped like at sign-out and the user lands on the sign-in page with a
// notice. A refusal (for example, the last owner of a team workspace with other members) shows the
// server's message and changes nothing.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { ERROR_CODES, isApiError } from "../../api/client";
import { queryKeys } from "../../api/queries";
import type { Me } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { SIGN_IN_PATH } from "../../auth/guards";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { AlertDialog } from "../../ui/Dialog";
import { deleteAccountAndWipe, DeviceWipeError } from "./deleteAccount";
import styles from "./profile.module.css";

export function DangerZone({ me }: { me: Me }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  const email = me.user.email;

  // Closed without deleting: focus goes back to the button that opened the dialog.
  useEffect(() => {
    if (open) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    const timer = setTimeout(() => openButton.current?.focus(), 0);
    return () => clearTimeout(timer);
  }, [open]);

  const remove = useMutation({
    /** Resolves true once the account is deleted and the device wiped; false when the wipe failed. */
    mutationFn: async () => {
      try {
        await deleteAccountAndWipe({ api, hostedProvider: me.provider === "clerk" });
        return true;
      } catch (error) {
        if (!(error instanceof DeviceWipeError)) throw error;
        console.error(error.message, error.cause);
        return false;
      }
    },
    // Offline, the call fails at once with its message; it must not wait for a network.
    networkMode: "always",
    onSuccess: async (wiped) => {
      // Nobody is signed in now: the screens watching /me see it at once (and the guards let the
      // sign-in page open), and nothing else of the deleted user stays in memory.
      queryClient.setQueryData<Me | null>(queryKeys.me, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.me[0] });
      setOpen(false);
      if (wiped) notify("success", t("profile.delete.done"));
      else notify("warning", t("profile.delete.doneWipeFailed"));
      await navigate({ to: SIGN_IN_PATH, replace: true });
    },
  });
  const refused = remove.isError && !isApiError(remove.error, ERROR_CODES.reverificationRequired);

  return (
    <Card title={t("profile.delete.zone")} tone="danger" data-testid="danger-zone">
      <div className={styles.settings}>
        <div className={styles.setting}>
          <div className={styles.settingRow}>
            <span className={`${styles.settingIcon} ${styles.settingIconDanger}`} aria-hidden="true">
              <Trash2 size={18} />
            </span>
            <div className={styles.settingBody}>
              <h3 className={styles.settingTitle}>{t("profile.delete.title")}</h3>
              <p className={styles.settingText}>{t("profile.delete.text")}</p>
            </div>
            <Button ref={openButton} variant="danger-outline" onClick={() => setOpen(true)}>
              {t("profile.delete.open")}
            </Button>
          </div>
        </div>
      </div>
      <AlertDialog
        open={open}
        onOpenChange={(next) => {
          if (!next) remove.reset();
          setOpen(next);
        }}
        title={t("profile.delete.warningTitle")}
        description={t("profile.delete.title")}
        confirmLabel={t("profile.delete.submit")}
        confirmLoadingLabel={t("profile.delete.deleting")}
        confirmText={email}
        confirmTextOptions={{ ignoreCase: true, type: "email", label: t("profile.delete.confirmLabel"), hint: t("profile.delete.confirmHint", { email }) }}
        onConfirm={() => remove.mutate()}
        loading={remove.isPending}
        error={refused ? <Alert>{errorText(remove.error)}</Alert> : undefined}
        data-testid="delete-account-dialog"
      >
        <ul className={styles.warningList}>
          <li>{t("profile.delete.warningPersonal")}</li>
          <li>{t("profile.delete.warningDevices")}</li>
          <li>{t("profile.delete.warningTeams")}</li>
        </ul>
      </AlertDialog>
    </Card>
  );
}
