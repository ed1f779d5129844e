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
import { TOTP_CODE_PATTERN } from "../../auth/totpCode";
import { useResendCooldown } from "../../auth/useResendCooldown";
import formStyles from "../../forms/form.module.css";
import { Alert } from "../../ui/Alert";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { CodeInput } from "../../ui/CodeInput";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { newEmailProblem } from "./accountForms";
import styles from "./profile.module.css";

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
    <div className={styles.accountEmail} data-testid="email-setting">
      <dl className={styles.details}>
        <div>
          <dt>{t("auth.email")}</dt>
          <dd data-testid="account-email">
            {user.email}{" "}
            <Badge tone={user.emailVerified ? "success" : "neutral"}>
              {user.emailVerified ? t("profile.account.verified") : t("profile.account.unverified")}
            </Badge>
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
          <Button ref={changeButton} icon={<Mail size={16} />} onClick={() => setOpen(true)}>
            {t("profile.email.change")}
          </Button>
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
  const cooldown = useResendCooldown();

  const request = useMutation({
    mutationFn: (email: string) => endpoints.requestEmailChange(api, email),
    onSuccess: (change) => {
      setPending(change);
      setCode("");
      setCodeProblem(undefined);
      cooldown.start(60);
    },
  });
  const resend = useMutation({
    mutationFn: (email: string) => endpoints.requestEmailChange(api, email),
    onSuccess: (change) => {
      setPending(change);
      cooldown.start(60);
    },
    onError: (error) => cooldown.fromError(error),
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
      <form key="address" className={`${formStyles.form} ${styles.panel}`} onSubmit={submitAddress} noValidate aria-labelledby="change-email-title">
        <h3 id="change-email-title" className={styles.settingTitle}>
          {t("profile.email.title")}
        </h3>
        <p className={styles.settingText}>{t("profile.email.intro")}</p>
        <Field label={t("profile.email.newLabel")} error={addressProblem ?? serverFieldError}>
          {/* Opening the form is asking to type: focus goes to its only field. */}
          <TextInput type="email" name="new-email" autoComplete="email" value={address} onChange={(e) => setAddress(e.target.value)} autoFocus />
        </Field>
        {request.isError && shownError(request.error) && !isFieldError(request.error) && <Alert>{errorText(request.error)}</Alert>}
        <div className={formStyles.actions}>
          <Button variant="ghost" onClick={onClose}>
            {t("common.cancel")}
          </Button>
          <Button type="submit" variant="primary" loading={request.isPending} loadingText={t("profile.email.sending")}>
            {t("profile.email.send")}
          </Button>
        </div>
      </form>
    );
  }

  const codeFieldError = confirm.isError && isFieldError(confirm.error) ? errorText(confirm.error) : undefined;
  return (
    <form key="code" className={`${formStyles.form} ${styles.panel}`} onSubmit={submitCode} noValidate aria-labelledby="change-email-title">
      <h3 id="change-email-title" className={styles.settingTitle}>
        {t("profile.email.title")}
      </h3>
      <p className={styles.settingText} role="status">
        {resend.isSuccess
          ? t("profile.email.resent", { email: pending.pendingEmail })
          : t("profile.email.codeSent", {
              email: pending.pendingEmail,
              time: format.date(pending.expiresAt, { hour: "2-digit", minute: "2-digit" }),
            })}
      </p>
      <Field label={t("profile.email.codeLabel")} error={codeProblem ?? codeFieldError}>
        {/* The code step replaces the address step: focus follows to the field to fill in. */}
        <CodeInput name="email-change-code" value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
      </Field>
      {confirm.isError && !isFieldError(confirm.error) && <Alert>{errorText(confirm.error)}</Alert>}
      {resend.isError && shownError(resend.error) && <Alert>{errorText(resend.error)}</Alert>}
      <div className={styles.links}>
        <button
          type="button"
          className={formStyles.linkButton}
          onClick={() => resend.mutate(pending.pendingEmail)}
          disabled={resend.isPending || cooldown.secondsLeft > 0}
        >
          {cooldown.secondsLeft > 0 ? t("account.resendIn", { count: cooldown.secondsLeft }) : t("profile.email.resend")}
        </button>
        <button type="button" className={formStyles.linkButton} onClick={otherAddress}>
          {t("profile.email.otherAddress")}
        </button>
      </div>
      <div className={formStyles.actions}>
        <Button variant="ghost" onClick={onClose}>
          {t("common.cancel")}
        </Button>
        <Button type="submit" variant="primary" loading={confirm.isPending} loadingText={t("profile.email.confirming")}>
          {t("profile.email.confirm")}
        </Button>
      </div>
    </form>
  );
}
