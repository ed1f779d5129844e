// /password/forgot and /password/reset: resetting a forgotten password by e-mail (issue 11).
// /password/forgot asks for the address (the server answers the same for every address), then takes
// the e-mailed 6-digit code with the new password; the e-mailed link opens /password/reset?token=…,
// which takes the new password only. Afterwards every session of the account has ended: sign in.
import { emailRequestSchema, passwordResetRequestSchema } from "@patrimonio/shared-schema";
import { useMutation } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { KeyRound, MailCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { accountApi } from "../../auth/accountApi";
import { useResendCooldown } from "../../auth/useResendCooldown";
import formStyles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { trimFields, useSchemaForm } from "../../forms/schemaForm";
import { Alert } from "../../ui/Alert";
import { Button, buttonClass } from "../../ui/Button";
import { CodeInput } from "../../ui/CodeInput";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { AuthCard, AuthIllustration } from "../auth/AuthCard";

/** /password/forgot: the address, then the e-mailed code and the new password. */
export function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const cooldown = useResendCooldown();
  const form = useSchemaForm(emailRequestSchema, { defaultValues: { email: "" }, prepare: trimFields("email") });
  const send = useMutation({
    mutationFn: (email: string) => accountApi.forgotPassword(api, email),
    onSuccess: (_answer, email) => {
      setSentTo(email);
      cooldown.start(60);
    },
    onError: (error) => cooldown.fromError(error),
  });

  if (done) return <ResetDone />;
  if (sentTo !== null) {
    return (
      <AuthCard title={t("account.password.sentTitle")} subtitle={t("account.password.sentText", { email: sentTo })}>
        <AuthIllustration>
          <MailCheck size={28} />
        </AuthIllustration>
        <NewPasswordForm withCode email={sentTo} onDone={() => setDone(true)} />
        <p className={formStyles.small}>
          <button
            type="button"
            className={formStyles.linkButton}
            onClick={() => send.mutate(sentTo)}
            disabled={send.isPending || cooldown.secondsLeft > 0}
          >
            {cooldown.secondsLeft > 0 ? t("account.resendIn", { count: cooldown.secondsLeft }) : t("reverify.resend")}
          </button>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t("account.password.forgotTitle")} subtitle={t("account.password.forgotText")} footer={<BackToSignIn />}>
      <form className={formStyles.form} noValidate onSubmit={form.submit((values) => send.mutateAsync(values.email))}>
        <Field label={t("account.password.emailLabel")} error={form.errorText("email")} required>
          <TextInput type="email" autoComplete="username" spellCheck={false} data-autofocus {...form.register("email")} />
        </Field>
        <FormError form={form} />
        <Button type="submit" variant="primary" block loading={send.isPending} loadingText={t("account.password.sending")}>
          {t("account.password.send")}
        </Button>
      </form>
    </AuthCard>
  );
}

/** /password/reset?token=…: the e-mailed link; the new password only. */
export function ResetPasswordScreen({ token }: { token: string }) {
  const { t } = useTranslation();
  const [done, setDone] = useState(false);
  if (done) return <ResetDone />;
  return (
    <AuthCard title={t("account.password.resetTitle")} subtitle={t("account.password.resetText")} footer={<BackToSignIn />}>
      <AuthIllustration>
        <KeyRound size={28} />
      </AuthIllustration>
      <NewPasswordForm token={token} onDone={() => setDone(true)} />
    </AuthCard>
  );
}

interface NewPasswordFormProps {
  token?: string;
  email?: string;
  withCode?: boolean;
  onDone: () => void;
}

function NewPasswordForm({ token, email, withCode = false, onDone }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const api = useApi();
  const [repeat, setRepeat] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const form = useSchemaForm(passwordResetRequestSchema, {
    defaultValues: withCode ? { email: email ?? "", code: "", password: "" } : { token: token ?? "", password: "" },
  });
  const reset = useMutation({
    mutationFn: (body: { token?: string; email?: string; code?: string; password: string }) => accountApi.resetPassword(api, body),
    onSuccess: onDone,
  });
  return (
    <form
      className={formStyles.form}
      noValidate
      onSubmit={form.submit(async (values) => {
        if (repeat !== values.password) return setMismatch(true);
        setMismatch(false);
        await reset.mutateAsync(values);
      })}
    >
      {withCode && (
        <Field label={t("account.password.codeLabel")} error={form.errorText("code")} required>
          <CodeInput data-autofocus {...form.register("code")} />
        </Field>
      )}
      <Field label={t("account.password.new")} hint={t("account.password.newHint")} error={form.errorText("password")} required>
        <TextInput type="password" autoComplete="new-password" data-autofocus={withCode ? undefined : true} {...form.register("password")} />
      </Field>
      <Field label={t("account.password.confirm")} error={mismatch ? t("account.password.mismatch") : undefined} required>
        <TextInput type="password" autoComplete="new-password" name="repeat" value={repeat} onChange={(e) => setRepeat(e.target.value)} />
      </Field>
      <FormError form={form} />
      <Button type="submit" variant="primary" block loading={reset.isPending} loadingText={t("account.password.resetting")}>
        {t("account.password.reset")}
      </Button>
    </form>
  );
}

function ResetDone() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t("account.password.resetTitle")}>
      <Alert tone="success">{t("account.password.done")}</Alert>
      <Link to="/signin" className={buttonClass({ variant: "primary", block: true })}>
        {t("account.password.backToSignIn")}
      </Link>
    </AuthCard>
  );
}

function BackToSignIn() {
  const { t } = useTranslation();
  return <Link to="/signin">{t("account.password.backToSignIn")}</Link>;
}
