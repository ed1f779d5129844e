// The profile's e-mail address and its change, in two steps: the new address (a sensitive action:
// when the server answers "reverification_required" the re-verification dialog opens by itself and
// the API client sends the call again), then the 6-digit code the server e-mailed to the new address.
// The address changes only once that code is confirmed; the server then ends the user's other
// sessions and tells the old address. Each step is a schema form (the shared emailRequest and
// codeRequest bodies) with the mutations of api/account.ts.
import { codeRequestSchema, emailRequestSchema } from "@patrimonio/shared-schema";
import { Mail } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useConfirmEmailChangeMutation, useRequestEmailChangeMutation } from "../../api/account";
import { ERROR_CODES, isApiError } from "../../api/client";
import type { EmailChange, User } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { useResendCooldown } from "../../auth/useResendCooldown";
import formStyles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { encodeMessage, trimFields, useSchemaForm } from "../../forms/schemaForm";
import { Alert } from "../../ui/Alert";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { CodeInput } from "../../ui/CodeInput";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import styles from "./profile.module.css";

/** A refusal the user already saw (the re-verification dialog, cancelled) is not shown again. */
function shownError(error: unknown): boolean {
  return error != null && !isApiError(error, ERROR_CODES.reverificationRequired);
}

/**
 * Runs a step's request. Its refusals go where the user looks: a 400 that names no field is about
 * the step's only field (an address the server will not take, a wrong code), so it goes under it;
 * a cancelled proof of identity was already seen and is not shown again; anything else reaches the
 * form (its fields, or the form's alert).
 */
async function sendStep<T extends FieldValues>(setError: UseFormSetError<T>, field: Path<T>, request: () => Promise<unknown>): Promise<void> {
  try {
    await request();
  } catch (error) {
    if (isApiError(error, ERROR_CODES.reverificationRequired)) return;
    if (isApiError(error, ERROR_CODES.invalid) && error.fields.length === 0) {
      setError(field, { type: "server", message: error.message }, { shouldFocus: true });
      return;
    }
    throw error;
  }
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
  const [pending, setPending] = useState<EmailChange | null>(null);
  const cooldown = useResendCooldown();
  // Each step is its own form (key), so that focus moves to the field of the step shown.
  return pending ? (
    <CodeStep key="code" pending={pending} onPending={setPending} onOtherAddress={() => setPending(null)} onClose={onClose} cooldown={cooldown} />
  ) : (
    <AddressStep
      key="address"
      currentEmail={currentEmail}
      onSent={(change) => {
        setPending(change);
        cooldown.start(60);
      }}
      onClose={onClose}
    />
  );
}

function AddressStep({ currentEmail, onSent, onClose }: { currentEmail: string; onSent: (change: EmailChange) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useSchemaForm(emailRequestSchema, { defaultValues: { email: "" }, prepare: trimFields("email") });
  const request = useRequestEmailChangeMutation({ onSuccess: onSent });

  return (
    <form
      className={`${formStyles.form} ${styles.panel}`}
      noValidate
      aria-labelledby="change-email-title"
      onSubmit={form.submit(async (values) => {
        // Addresses are kept in lower case: "Ana@Example.com" is the address the user already has.
        if (values.email.toLowerCase() === currentEmail.trim().toLowerCase()) {
          form.setError("email", { type: "same", message: encodeMessage("profile.email.same") }, { shouldFocus: true });
          return;
        }
        await sendStep(form.setError, "email", () => request.mutateAsync(values));
      })}
    >
      <h3 id="change-email-title" className={styles.settingTitle}>
        {t("profile.email.title")}
      </h3>
      <p className={styles.settingText}>{t("profile.email.intro")}</p>
      <Field label={t("profile.email.newLabel")} error={form.errorText("email")}>
        {/* Opening the form is asking to type: focus goes to its only field. */}
        <TextInput type="email" autoComplete="email" {...form.register("email")} autoFocus />
      </Field>
      <FormError form={form} />
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

interface CodeStepProps {
  pending: EmailChange;
  onPending: (change: EmailChange) => void;
  onOtherAddress: () => void;
  onClose: () => void;
  cooldown: ReturnType<typeof useResendCooldown>;
}

function CodeStep({ pending, onPending, onOtherAddress, onClose, cooldown }: CodeStepProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useFormatters();
  const form = useSchemaForm(codeRequestSchema, { defaultValues: { code: "" } });
  const resend = useRequestEmailChangeMutation({
    onSuccess: (change) => {
      onPending(change);
      cooldown.start(60);
    },
    onError: (error) => cooldown.fromError(error),
  });
  const confirm = useConfirmEmailChangeMutation({
    onSuccess: ({ user }) => {
      notify("success", t("profile.email.changed", { email: user.email }), { description: t("profile.email.changedDetail") });
      onClose();
    },
  });

  return (
    <form
      className={`${formStyles.form} ${styles.panel}`}
      noValidate
      aria-labelledby="change-email-title"
      onSubmit={form.submit(async (values) => {
        resend.reset();
        await sendStep(form.setError, "code", () => confirm.mutateAsync(values));
      })}
    >
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
      <Field label={t("profile.email.codeLabel")} error={form.errorText("code")}>
        {/* The code step replaces the address step: focus follows to the field to fill in. */}
        <CodeInput {...form.register("code")} autoFocus />
      </Field>
      <FormError form={form} />
      {resend.isError && shownError(resend.error) && <Alert>{errorText(resend.error)}</Alert>}
      <div className={styles.links}>
        <button
          type="button"
          className={formStyles.linkButton}
          onClick={() => resend.mutate({ email: pending.pendingEmail })}
          disabled={resend.isPending || cooldown.secondsLeft > 0}
        >
          {cooldown.secondsLeft > 0 ? t("account.resendIn", { count: cooldown.secondsLeft }) : t("profile.email.resend")}
        </button>
        <button type="button" className={formStyles.linkButton} onClick={onOtherAddress}>
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
