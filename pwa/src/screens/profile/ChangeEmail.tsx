// The profile's e-mail address and its change, in two steps: the new address (a sensitive action:
// when the server answers "reverification_required" the re-verification dialog opens by itself and
// the API client sends the call again), then the 6-digit code the server e-mailed to the new address.
// The address changes only once that code is confirmed; the server then ends the user's other
// sessions and tells the old address.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Mail } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { ERROR_CODES, isApiError } from "../../api/client";
import { endpoints } from "../../api/endpoints";
import { queryKeys } from "../../api/queries";
import type { EmailChange, Me, User } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { TOTP_CODE_LENGTH, TOTP_CODE_PATTERN } from "../../auth/totpCode";
import { FormAlert, TextField } from "../../forms/fields";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { newEmailProblem } from "./accountForms";
import "./profile.css";

/** A refusal the user already saw (the re-verification dialog, cancelled) is not shown again. */
function shownError(error: unknown): boolean {
  return error != null && !isApiError(error, ERROR_CODES.reverificationRequired);
}

/** A 400 from the server is about what was typed: it goes under the field, not above the form. */
function isFieldError(error: unknown): boolean {
  return isApiError(error, ERROR_CODES.invalid);
}

/** The e-mail address in the profile's account card, with "Change e-mail" for local accounts. */
export function EmailSetting({ user, canChange }: { user: User; canChange: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const changeButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false;
      changeButton.current?.focus();
    }
  }, [open]);

  return (
    <div className="account-email" data-testid="email-setting">
      <dl className="details">
        <div>
          <dt>{t("auth.email")}</dt>
          <dd data-testid="account-email">
            {user.email}{" "}
            <span className={user.emailVerified ? "badge badge-success" : "badge"}>
              {user.emailVerified ? t("profile.account.verified") : t("profile.account.unverified")}
            </span>
          </dd>
        </div>
      </dl>
      {open ? (
        <ChangeEmailForm
          currentEmail={user.email}
          onClose={() => {
            returnFocus.current = true;
            setOpen(false);
          }}
        />
      ) : (
        canChange && (
          <button ref={changeButton} type="button" className="button account-email-change" onClick={() => setOpen(true)}>
            <Mail size={16} aria-hidden="true" />
            {t("profile.email.change")}
          </button>
        )
      )}
    </div>
  );
}

function ChangeEmailForm({ currentEmail, onClose }: { currentEmail: string; onClose: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const format = useFormatters();
  const [address, setAddress] = useState("");
  const [addressProblem, setAddressProblem] = useState<string | undefined>();
  const [pending, setPending] = useState<EmailChange | null>(null);
  const [code, setCode] = useState("");
  const [codeProblem, setCodeProblem] = useState<string | undefined>();

  const request = useMutation({
    mutationFn: (email: string) => endpoints.requestEmailChange(api, email),
    onSuccess: (change) => {
      setPending(change);
      setCode("");
      setCodeProblem(undefined);
    },
  });
  const resend = useMutation({
    mutationFn: (email: string) => endpoints.requestEmailChange(api, email),
    onSuccess: (change) => setPending(change),
  });
  const confirm = useMutation({
    mutationFn: (value: string) => endpoints.confirmEmailChange(api, value),
    onSuccess: async ({ user }) => {
      queryClient.setQueryData<Me | null>(queryKeys.me, (me) => (me ? { ...me, user } : me));
      notify("success", t("profile.email.changed", { email: user.email }), { description: t("profile.email.changedDetail") });
      onClose();
      await queryClient.invalidateQueries({ queryKey: queryKeys.me });
    },
  });

  function submitAddress(event: FormEvent) {
    event.preventDefault();
    const problem = newEmailProblem(address, currentEmail);
    if (problem) {
      setAddressProblem(
        problem === "required" ? t("profile.email.required") : problem === "same" ? t("profile.email.same") : t("auth.emailInvalid"),
      );
      return;
    }
    setAddressProblem(undefined);
    request.mutate(address.trim());
  }

  function submitCode(event: FormEvent) {
    event.preventDefault();
    if (!TOTP_CODE_PATTERN.test(code)) {
      setCodeProblem(t("auth.codeInvalid"));
      return;
    }
    setCodeProblem(undefined);
    resend.reset();
    confirm.mutate(code);
  }

  function otherAddress() {
    setPending(null);
    request.reset();
    resend.reset();
    confirm.reset();
  }

  if (!pending) {
    const serverFieldError = request.isError && isFieldError(request.error) ? errorText(request.error) : undefined;
    return (
      // Each step is its own form (key), so that focus moves to the field of the step shown.
      <form key="address" className="form setting-panel account-panel" onSubmit={submitAddress} noValidate aria-labelledby="change-email-title">
        <h3 id="change-email-title" className="setting-title">
          {t("profile.email.title")}
        </h3>
        <p className="setting-text">{t("profile.email.intro")}</p>
        <TextField
          label={t("profile.email.newLabel")}
          type="email"
          name="new-email"
          autoComplete="email"
          value={address}
          onChange={(e) => setAddress(e.target.value)}
          error={addressProblem ?? serverFieldError}
          // Opening the form is asking to type: focus goes to its only field.
          autoFocus
        />
        {request.isError && shownError(request.error) && !isFieldError(request.error) && <FormAlert>{errorText(request.error)}</FormAlert>}
        <div className="form-actions">
          <button type="button" className="button button-ghost" onClick={onClose}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="button button-primary" disabled={request.isPending}>
            {request.isPending ? t("profile.email.sending") : t("profile.email.send")}
          </button>
        </div>
      </form>
    );
  }

  const codeFieldError = confirm.isError && isFieldError(confirm.error) ? errorText(confirm.error) : undefined;
  return (
    <form key="code" className="form setting-panel account-panel" onSubmit={submitCode} noValidate aria-labelledby="change-email-title">
      <h3 id="change-email-title" className="setting-title">
        {t("profile.email.title")}
      </h3>
      <p className="setting-text" role="status">
        {resend.isSuccess
          ? t("profile.email.resent", { email: pending.pendingEmail })
          : t("profile.email.codeSent", {
              email: pending.pendingEmail,
              time: format.date(pending.expiresAt, { hour: "2-digit", minute: "2-digit" }),
            })}
      </p>
      <TextField
        label={t("profile.email.codeLabel")}
        name="email-change-code"
        className="input-code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={TOTP_CODE_LENGTH}
        value={code}
        onChange={(e) => setCode(e.target.value.replace(/\D/g, ""))}
        error={codeProblem ?? codeFieldError}
        // The code step replaces the address step: focus follows to the field to fill in.
        autoFocus
      />
      {confirm.isError && !isFieldError(confirm.error) && <FormAlert>{errorText(confirm.error)}</FormAlert>}
      {resend.isError && shownError(resend.error) && <FormAlert>{errorText(resend.error)}</FormAlert>}
      <div className="form-links">
        <button type="button" className="link-button" onClick={() => resend.mutate(pending.pendingEmail)} disabled={resend.isPending}>
          {t("profile.email.resend")}
        </button>
        <button type="button" className="link-button" onClick={otherAddress}>
          {t("profile.email.otherAddress")}
        </button>
      </div>
      <div className="form-actions">
        <button type="button" className="button button-ghost" onClick={onClose}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button button-primary" disabled={confirm.isPending}>
          {confirm.isPending ? t("profile.email.confirming") : t("profile.email.confirm")}
        </button>
      </div>
    </form>
  );
}
