// /signup/verify: the 6-digit code sent to the new account's e-mail address, with a resend link
// (disabled, with a countdown, while the server would refuse another code). Right after sign-up
// there is no session yet: the address comes in ?email= and the code signs in
// (POST /auth/signup/verify). A signed-in user whose address is not verified yet (signed in with the
// password before confirming) uses the signed-in endpoints. Then on to the onboarding intro at its
// security section (spec: /onboarding#/security).
import { codeRequestSchema } from "@patrimonio/shared-schema";
import { useNavigate, useRouterState } from "@tanstack/react-router";
import { MailCheck } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useResendEmailCodeMutation, useSignUpResendMutation, useSignUpVerifyMutation, useVerifyEmailMutation } from "../../api/auth";
import { useMe } from "../../api/queries";
import { AFTER_SIGN_UP } from "../../auth/guards";
import { useResendCooldown } from "../../auth/useResendCooldown";
import styles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { useSchemaForm } from "../../forms/schemaForm";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { CodeInput } from "../../ui/CodeInput";
import { Field } from "../../ui/Field";
import { AuthCard, AuthIllustration } from "./AuthCard";

export function VerifyEmailScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data: me } = useMe();
  const searchEmail = new URLSearchParams(useRouterState({ select: (s) => s.location.searchStr })).get("email") ?? "";
  // Signed in (an unverified account): the session's endpoints; else the sign-up's, by address.
  const signedIn = me != null && me.user.emailVerified === false;
  const email = signedIn ? me.user.email : searchEmail;
  const cooldown = useResendCooldown();

  const form = useSchemaForm(codeRequestSchema, { defaultValues: { code: "" } });
  const done = () => navigate({ ...AFTER_SIGN_UP, replace: true });
  const verifySignedIn = useVerifyEmailMutation({ onSuccess: done });
  const verifySignUp = useSignUpVerifyMutation({ onSuccess: done });
  const resent = (seconds: number | undefined) => {
    cooldown.start(seconds);
    notify("success", t("auth.verifyEmail.resent"));
  };
  const resendSignedIn = useResendEmailCodeMutation({ onSuccess: () => resent(undefined), onError: cooldown.fromError });
  const resendSignUp = useSignUpResendMutation({ onSuccess: (answer) => resent(answer.resendAfterSeconds), onError: cooldown.fromError });
  const resend = signedIn ? resendSignedIn : resendSignUp;
  const verifying = verifySignedIn.isPending || verifySignUp.isPending;

  return (
    <AuthCard title={t("auth.verifyEmail.title")} subtitle={t("auth.verifyEmail.subtitle", { email })}>
      <AuthIllustration>
        <MailCheck size={28} />
      </AuthIllustration>
      <form
        className={styles.form}
        noValidate
        onSubmit={form.submit((values) => (signedIn ? verifySignedIn.mutateAsync(values) : verifySignUp.mutateAsync({ email, code: values.code })))}
      >
        <Field label={t("auth.verifyEmail.codeLabel")} error={form.errorText("code")} required>
          <CodeInput {...form.register("code")} />
        </Field>
        <FormError form={form} />
        <Button type="submit" variant="primary" block loading={verifying} loadingText={t("common.checking")}>
          {t("auth.verifyEmail.submit")}
        </Button>
        <p className={styles.small}>
          {t("auth.verifyEmail.noCode")}{" "}
          <button
            type="button"
            className={styles.linkButton}
            onClick={() => (signedIn ? resendSignedIn.mutate() : resendSignUp.mutate({ email }))}
            disabled={resend.isPending || cooldown.secondsLeft > 0 || email === ""}
          >
            {cooldown.secondsLeft > 0 ? t("auth.verifyEmail.resendIn", { count: cooldown.secondsLeft }) : t("auth.verifyEmail.resend")}
          </button>
        </p>
        {resend.isError && !cooldown.secondsLeft && <FormError error={resend.error} />}
      </form>
    </AuthCard>
  );
}
