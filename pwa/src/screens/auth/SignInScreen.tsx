// /signin: e-mail and password (then the authenticator code when the account has one), or a passkey.
// With the hosted provider configured (Clerk), its own sign-in component instead.
import { Link } from "@tanstack/react-router";
import { Fingerprint } from "lucide-react";
import { lazy, Suspense, useState, type ReactNode } from "react";
import type { UseFormRegisterReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type * as z from "zod";
import { usePasskeySignInMutation, useSecondFactorMutation, useSignInMutation, type SecondFactorBody } from "../../api/auth";
import { useAuthConfig } from "../../api/queries";
import { isWebAuthnCancel, webauthnSupported } from "../../auth/webauthn";
import { useFinishSignIn } from "../../auth/useSession";
import styles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { trimFields } from "../../forms/formCore";
import { lazySchema, useLazySchemaForm, type LazySchema } from "../../forms/lazySchemaForm";
import { RoutePending } from "../../router/fallbacks";
import { Button } from "../../ui/Button";
import { CodeInput } from "../../ui/CodeInput";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import { AuthCard, AuthDivider } from "./AuthCard";

// The first page most people see paints before zod and the schemas load (lazySchemaForm.ts).
const schemas = () => import("./signInSchemas");
const signInSchema = lazySchema(() => schemas().then((m) => m.signInRequestSchema));
const codeSchema = lazySchema(() => schemas().then((m) => m.codeRequestSchema));
const recoveryCodeSchema = lazySchema(() => schemas().then((m) => m.recoveryCodeRequestSchema));

const ClerkSignIn = lazy(() => import("./ClerkScreens").then((m) => ({ default: m.ClerkSignIn })));

export function SignInScreen({ redirect }: { redirect?: string | undefined }) {
  const config = useAuthConfig();
  // Offline the configuration waits for a network: the local form at once (submitting says what is wrong).
  if (config.isPending && config.fetchStatus !== "paused") return <RoutePending />;
  if (config.data?.provider === "clerk" && config.data.clerkPublishableKey) {
    return (
      <Suspense fallback={<RoutePending />}>
        <ClerkSignIn publishableKey={config.data.clerkPublishableKey} />
      </Suspense>
    );
  }
  return <LocalSignIn redirect={redirect} passkeys={config.data?.passkeys ?? true} />;
}

function LocalSignIn({ redirect, passkeys }: { redirect: string | undefined; passkeys: boolean }) {
  const { t } = useTranslation();
  const finish = useFinishSignIn(redirect);
  const [secondFactor, setSecondFactor] = useState(false);
  const form = useLazySchemaForm(signInSchema, { defaultValues: { email: "", password: "" }, prepare: trimFields("email") });
  const signIn = useSignInMutation({
    onSuccess: async (result) => {
      if (result.mfaRequired) setSecondFactor(true);
      else await finish();
    },
  });
  const passkey = usePasskeySignInMutation({ onSuccess: finish });

  if (secondFactor) return <SecondFactor onDone={finish} onBack={() => setSecondFactor(false)} />;

  return (
    <AuthCard
      title={t("auth.signIn.title")}
      subtitle={t("auth.signIn.subtitle")}
      footer={
        <>
          {t("auth.signIn.noAccount")}{" "}
          <Link to="/signup" search={redirect ? { redirect } : {}}>
            {t("auth.signIn.createAccount")}
          </Link>
        </>
      }
    >
      <form className={styles.form} noValidate onSubmit={form.submit((values) => signIn.mutateAsync(values))}>
        <Field label={t("auth.email")} error={form.errorText("email")} required>
          <TextInput type="email" autoComplete="username webauthn" spellCheck={false} {...form.register("email")} />
        </Field>
        <Field label={t("auth.password")} error={form.errorText("password")} required>
          <TextInput type="password" autoComplete="current-password" {...form.register("password")} />
        </Field>
        <Link to="/password/forgot" className={styles.small}>{t("account.password.forgotLink")}</Link>
        <FormError form={form} />
        <Button type="submit" variant="primary" block loading={signIn.isPending} loadingText={t("auth.signIn.pending")}>
          {t("auth.signIn.submit")}
        </Button>
      </form>
      {passkeys && webauthnSupported() && (
        <>
          <AuthDivider>{t("common.or")}</AuthDivider>
          <Button block icon={<Fingerprint size={16} />} onClick={() => passkey.mutate()} loading={passkey.isPending}>
            {t("auth.signIn.passkey")}
          </Button>
          {passkey.isError && !isWebAuthnCancel(passkey.error) && <FormError error={passkey.error} />}
        </>
      )}
    </AuthCard>
  );
}

/** The second step of a password sign-in on an account with an authenticator app. */
function SecondFactor({ onDone, onBack }: { onDone: () => Promise<void>; onBack: () => void }) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const verify = useSecondFactorMutation({ onSuccess: onDone });

  return (
    <AuthCard title={t("auth.secondFactor.title")} subtitle={useRecovery ? t("auth.secondFactor.recoverySubtitle") : t("auth.secondFactor.subtitle")}>
      <SecondFactorForm key={String(useRecovery)} recovery={useRecovery} onSubmit={(body) => verify.mutateAsync(body)} pending={verify.isPending} />
      <div className={styles.links}>
        <button
          type="button"
          className={styles.linkButton}
          onClick={() => {
            setUseRecovery((r) => !r);
            verify.reset();
          }}
        >
          {useRecovery ? t("auth.secondFactor.useCode") : t("auth.secondFactor.useRecovery")}
        </button>
        <button type="button" className={styles.linkButton} onClick={onBack}>
          {t("common.back")}
        </button>
      </div>
    </AuthCard>
  );
}

/** The code of the second step: six digits from the authenticator app, or one of the recovery codes. */
function SecondFactorForm({ recovery, onSubmit, pending }: { recovery: boolean; onSubmit: (body: SecondFactorBody) => Promise<unknown>; pending: boolean }) {
  const { t } = useTranslation();
  return recovery ? (
    <CodeForm
      schema={recoveryCodeSchema}
      name="recoveryCode"
      label={t("auth.secondFactor.recoveryLabel")}
      input={(props) => <TextInput autoComplete="off" spellCheck={false} {...props} />}
      onSubmit={onSubmit}
      pending={pending}
    />
  ) : (
    <CodeForm schema={codeSchema} name="code" label={t("auth.secondFactor.codeLabel")} input={(props) => <CodeInput {...props} />} onSubmit={onSubmit} pending={pending} />
  );
}

interface CodeFormProps<K extends string> {
  schema: LazySchema<z.ZodType<Record<K, string>, Record<K, string>>>;
  name: K;
  label: string;
  input: (props: UseFormRegisterReturn) => ReactNode;
  onSubmit: (body: Record<K, string>) => Promise<unknown>;
  pending: boolean;
}

function CodeForm<K extends "code" | "recoveryCode">({ schema, name, label, input, onSubmit, pending }: CodeFormProps<K>) {
  const { t } = useTranslation();
  const form = useLazySchemaForm<z.ZodType<Record<K, string>, Record<K, string>>, Record<string, string>>(schema, {
    defaultValues: { [name]: "" },
    prepare: trimFields(name),
  });
  return (
    <form className={styles.form} noValidate onSubmit={form.submit((values) => onSubmit(values as Record<K, string>))}>
      <Field label={label} error={form.errorText(name)} required>
        {input(form.register(name))}
      </Field>
      <FormError form={form} />
      <Button type="submit" variant="primary" block loading={pending} loadingText={t("common.checking")}>
        {t("auth.secondFactor.submit")}
      </Button>
    </form>
  );
}
