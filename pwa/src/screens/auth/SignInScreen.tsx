// /signin: e-mail and password (then the authenticator code when the account has one), or a passkey.
// With the hosted provider configured (Clerk), its own sign-in component instead.
import { useMutation } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Fingerprint } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { useAuthConfig } from "../../api/queries";
import { useErrorText } from "../../api/useErrorText";
import { TOTP_CODE_PATTERN } from "../../auth/totpCode";
import { useFinishSignIn } from "../../auth/useSession";
import { getPasskeyAssertion, isWebAuthnCancel, webauthnSupported } from "../../auth/webauthn";
import { FormAlert, TextField } from "../../forms/fields";
import { RoutePending } from "../../router/fallbacks";
import { AuthCard } from "./AuthCard";

const ClerkSignIn = lazy(() => import("./ClerkScreens").then((m) => ({ default: m.ClerkSignIn })));

export function SignInScreen({ redirect }: { redirect?: string | undefined }) {
  const config = useAuthConfig();
  if (config.isPending) return <RoutePending />;
  if (config.data?.provider === "clerk" && config.data.clerkPublishableKey) {
    return (
      <Suspense fallback={<RoutePending />}>
        <ClerkSignIn publishableKey={config.data.clerkPublishableKey} />
      </Suspense>
    );
  }
  return <LocalSignIn redirect={redirect} passkeys={config.data?.passkeys ?? true} />;
}

interface Credentials {
  email: string;
  password: string;
}

function LocalSignIn({ redirect, passkeys }: { redirect: string | undefined; passkeys: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  const finish = useFinishSignIn(redirect);
  const [secondFactor, setSecondFactor] = useState(false);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Credentials>({ defaultValues: { email: "", password: "" } });

  const signIn = useMutation({
    mutationFn: (values: Credentials) => endpoints.signIn(api, { email: values.email.trim(), password: values.password }),
    onSuccess: async (result) => {
      if (result.mfaRequired) setSecondFactor(true);
      else await finish();
    },
  });

  const passkey = useMutation({
    mutationFn: async () => {
      const options = await endpoints.passkeyLoginBegin(api);
      const credential = await getPasskeyAssertion(options);
      return endpoints.passkeyLoginFinish(api, credential);
    },
    onSuccess: finish,
  });

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
      <form className="form" noValidate onSubmit={handleSubmit((values) => signIn.mutate(values))}>
        <TextField
          label={t("auth.email")}
          type="email"
          autoComplete="username webauthn"
          error={errors.email?.message}
          {...register("email", { validate: (v) => (v.trim() === "" ? t("auth.emailRequired") : true) })}
        />
        <TextField
          label={t("auth.password")}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          {...register("password", { validate: (v) => (v === "" ? t("auth.passwordRequired") : true) })}
        />
        {signIn.isError && <FormAlert>{errorText(signIn.error)}</FormAlert>}
        <button type="submit" className="button button-primary button-block" disabled={signIn.isPending}>
          {signIn.isPending ? t("auth.signIn.pending") : t("auth.signIn.submit")}
        </button>
      </form>
      {passkeys && webauthnSupported() && (
        <>
          <div className="divider" role="separator">
            <span>{t("common.or")}</span>
          </div>
          <button type="button" className="button button-block" onClick={() => passkey.mutate()} disabled={passkey.isPending}>
            <Fingerprint size={16} aria-hidden="true" />
            {t("auth.signIn.passkey")}
          </button>
          {passkey.isError && !isWebAuthnCancel(passkey.error) && <FormAlert>{errorText(passkey.error)}</FormAlert>}
        </>
      )}
    </AuthCard>
  );
}

/** The second step of a password sign-in on an account with an authenticator app. */
function SecondFactor({ onDone, onBack }: { onDone: () => Promise<void>; onBack: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  const [useRecovery, setUseRecovery] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<{ code: string }>({ defaultValues: { code: "" } });

  const verify = useMutation({
    mutationFn: (code: string) => endpoints.signInSecondFactor(api, useRecovery ? { recoveryCode: code } : { code }),
    onSuccess: onDone,
  });

  return (
    <AuthCard title={t("auth.secondFactor.title")} subtitle={useRecovery ? t("auth.secondFactor.recoverySubtitle") : t("auth.secondFactor.subtitle")}>
      <form className="form" noValidate onSubmit={handleSubmit((values) => verify.mutate(values.code.trim()))}>
        {useRecovery ? (
          <TextField
            key="recovery"
            label={t("auth.secondFactor.recoveryLabel")}
            autoComplete="off"
            spellCheck={false}
            error={errors.code?.message}
            {...register("code", { validate: (v) => (v.trim() === "" ? t("auth.secondFactor.recoveryRequired") : true) })}
          />
        ) : (
          <TextField
            key="code"
            label={t("auth.secondFactor.codeLabel")}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            error={errors.code?.message}
            {...register("code", { validate: (v) => (TOTP_CODE_PATTERN.test(v.trim()) ? true : t("auth.codeInvalid")) })}
          />
        )}
        {verify.isError && <FormAlert>{errorText(verify.error)}</FormAlert>}
        <button type="submit" className="button button-primary button-block" disabled={verify.isPending}>
          {verify.isPending ? t("common.checking") : t("auth.secondFactor.submit")}
        </button>
        <div className="form-links">
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setUseRecovery((r) => !r);
              reset({ code: "" });
              verify.reset();
            }}
          >
            {useRecovery ? t("auth.secondFactor.useCode") : t("auth.secondFactor.useRecovery")}
          </button>
          <button type="button" className="link-button" onClick={onBack}>
            {t("common.back")}
          </button>
        </div>
      </form>
    </AuthCard>
  );
}
