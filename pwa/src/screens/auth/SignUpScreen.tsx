// /signup: e-mail and password; the server checks the password (length, list of common passwords)
// and sends an e-mail verification code, asked for on /signup/verify. With the hosted provider
// configured (Clerk), its own sign-up component instead, with the same destination afterwards.
import { signUpRequestSchema } from "@patrimonio/shared-schema";
import { Link, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { Trans, useTranslation } from "react-i18next";
import { useSignUpMutation } from "../../api/auth";
import { useAuthConfig } from "../../api/queries";
import styles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { trimFields, useSchemaForm } from "../../forms/schemaForm";
import { RoutePending } from "../../router/fallbacks";
import { Button } from "../../ui/Button";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { AuthCard } from "./AuthCard";

const ClerkSignUp = lazy(() => import("./ClerkScreens").then((m) => ({ default: m.ClerkSignUp })));

export function SignUpScreen() {
  const config = useAuthConfig();
  // Offline the configuration waits for a network: the local form at once (submitting says what is wrong).
  if (config.isPending && config.fetchStatus !== "paused") return <RoutePending />;
  if (config.data?.provider === "clerk" && config.data.clerkPublishableKey) {
    return (
      <Suspense fallback={<RoutePending />}>
        <ClerkSignUp publishableKey={config.data.clerkPublishableKey} />
      </Suspense>
    );
  }
  return <LocalSignUp />;
}

function LocalSignUp() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useSchemaForm(signUpRequestSchema, {
    defaultValues: { email: "", password: "" },
    prepare: trimFields("email"),
  });
  // The same answer for a new and a taken address: the code (or, for a taken one, a notice) is in the mail.
  const signUp = useSignUpMutation({
    onSuccess: ({ email }) => navigate({ href: `/signup/verify?${new URLSearchParams({ email }).toString()}`, replace: true }),
  });

  return (
    <AuthCard
      title={t("auth.signUp.title")}
      subtitle={t("auth.signUp.subtitle")}
      footer={
        <>
          {t("auth.signUp.haveAccount")} <Link to="/signin">{t("auth.signUp.signIn")}</Link>
        </>
      }
    >
      <form className={styles.form} noValidate onSubmit={form.submit((values) => signUp.mutateAsync(values))}>
        <Field label={t("auth.email")} error={form.errorText("email")} required>
          <TextInput type="email" autoComplete="email" spellCheck={false} {...form.register("email")} />
        </Field>
        <Field label={t("auth.password")} hint={t("auth.signUp.passwordHint")} error={form.errorText("password")} required>
          <TextInput type="password" autoComplete="new-password" {...form.register("password")} />
        </Field>
        <FormError form={form} />
        <Button type="submit" variant="primary" block loading={signUp.isPending} loadingText={t("auth.signUp.pending")}>
          {t("auth.signUp.submit")}
        </Button>
        <p className={styles.small}>{t("auth.signUp.terms")}</p>
        <p className={styles.small}>
          <Trans i18nKey="auth.signUp.legal" components={{ terms: <Link to="/tos" />, privacy: <Link to="/privacy" /> }} />
        </p>
      </form>
    </AuthCard>
  );
}
