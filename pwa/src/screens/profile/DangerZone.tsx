// The profile's danger zone: deleting the account. It says what goes and that it cannot be undone,
// asks for the account's e-mail address to be typed, then the server asks for a recent proof of
// identity (the re-verification dialog opens by itself). Once deleted, the device is wiped like at
// sign-out and the user lands on the sign-in page with a notice. A refusal (for example, the last
// owner of a team workspace with other members) shows the server's message and changes nothing.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { Trash2, TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { ERROR_CODES, isApiError } from "../../api/client";
import { queryKeys } from "../../api/queries";
import type { Me } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { SIGN_IN_PATH } from "../../auth/guards";
import { FormAlert, TextField } from "../../forms/fields";
import { notify } from "../../toast/toast";
import { confirmsDeletion } from "./accountForms";
import { deleteAccountAndWipe, DeviceWipeError } from "./deleteAccount";
import "./profile.css";

export function DangerZone({ me }: { me: Me }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false;
      openButton.current?.focus();
    }
  }, [open]);

  return (
    <section className="card card-danger" aria-labelledby="profile-danger" data-testid="danger-zone">
      <h2 id="profile-danger" className="section-title danger-title">
        {t("profile.delete.zone")}
      </h2>
      <div className="settings-list settings-list-danger">
        <div className="setting setting-column">
          <div className="setting-row">
            <span className="setting-icon setting-icon-danger" aria-hidden="true">
              <Trash2 size={18} />
            </span>
            <div className="setting-body">
              <h3 className="setting-title">{t("profile.delete.title")}</h3>
              <p className="setting-text">{t("profile.delete.text")}</p>
            </div>
            {!open && (
              <button ref={openButton} type="button" className="button button-danger" onClick={() => setOpen(true)}>
                {t("profile.delete.open")}
              </button>
            )}
          </div>
          {open && (
            <DeleteAccountForm
              me={me}
              onCancel={() => {
                returnFocus.current = true;
                setOpen(false);
              }}
            />
          )}
        </div>
      </div>
    </section>
  );
}

function DeleteAccountForm({ me, onCancel }: { me: Me; onCancel: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const errorText = useErrorText();
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const email = me.user.email;

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
      if (wiped) notify("success", t("profile.delete.done"));
      else notify("warning", t("profile.delete.doneWipeFailed"));
      await navigate({ to: SIGN_IN_PATH, replace: true });
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!confirmsDeletion(typed, email)) {
      setProblem(t("profile.delete.mismatch", { email }));
      return;
    }
    setProblem(undefined);
    remove.mutate();
  }

  const refused = remove.isError && !isApiError(remove.error, ERROR_CODES.reverificationRequired);

  return (
    <form className="form setting-panel account-panel" onSubmit={submit} noValidate aria-labelledby="delete-account-warning">
      <div className="danger-warning">
        <h4 id="delete-account-warning" className="danger-warning-title">
          <TriangleAlert size={16} aria-hidden="true" />
          {t("profile.delete.warningTitle")}
        </h4>
        <ul className="danger-warning-list">
          <li>{t("profile.delete.warningPersonal")}</li>
          <li>{t("profile.delete.warningDevices")}</li>
          <li>{t("profile.delete.warningTeams")}</li>
        </ul>
      </div>
      <TextField
        label={t("profile.delete.confirmLabel")}
        hint={t("profile.delete.confirmHint", { email })}
        name="confirm-email"
        type="email"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
        error={problem}
        // The panel opens to be filled in: focus goes to its field.
        autoFocus
      />
      {refused && <FormAlert>{errorText(remove.error)}</FormAlert>}
      <div className="form-actions">
        <button type="button" className="button button-ghost" onClick={onCancel} disabled={remove.isPending}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button button-danger-solid" disabled={remove.isPending}>
          <Trash2 size={16} aria-hidden="true" />
          {remove.isPending ? t("profile.delete.deleting") : t("profile.delete.submit")}
        </button>
      </div>
    </form>
  );
}
