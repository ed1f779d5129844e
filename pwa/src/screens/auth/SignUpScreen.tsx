// /signup: e-mail and password; the server checks the password (length, list of common passwords)
// and sends an e-mail verification code, asked for on /signup/verify. With the hosted provider
// configured (Clerk), its own sign-up component instead, with the same destination afterwards.
import { useMutation } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { lazy, Suspense } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { useAuthConfig } from "../../api/queries";
import { useErrorText } from "../../api/useErrorText";
import { useRefreshMe } from "../../auth/useSession";
import { FormAlert, TextField } from "../../forms/fields";
import { RoutePending } from "../../router/fallbacks";
import { AuthCard } from "./AuthCard";

const ClerkSignUp = lazy(() => import("./ClerkScreens").then((m) => ({ default: m.ClerkSignUp })));

export function SignUpScreen() {
  const config = useAuthConfig();
  if (config.isPending) return <RoutePending />;
  if (config.data?.provider === "clerk" && config.data.clerkPublishableKey) {
    return (
      <Suspense fallback={<RoutePending />}>
        <ClerkSignUp publishableKey={config.data.clerkPublishableKey} />
      </Suspense>
    );
  }
  return <LocalSignUp />;
}

interface SignUpValues {
  email: string;
  password: string;
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function LocalSignUp() {
  const { t } = useTranslation();
  const api = useApi();
  const navigate = useNavigate();
  const refreshMe = useRefreshMe();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SignUpValues>({ defaultValues: { email: "", password: "" } });

  const signUp = useMutation({
    mutationFn: (values: SignUpValues) => endpoints.signUp(api, { email: values.email.trim(), password: values.password }),
    onSuccess: async () => {
      await refreshMe();
      await navigate({ to: "/signup/verify", replace: true });
    },
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
      <form className="form" noValidate onSubmit={handleSubmit((values) => signUp.mutate(values))}>
        <TextField
          label={t("auth.email")}
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...register("email", {
            validate: (v) => (v.trim() === "" ? t("auth.emailRequired") : EMAIL_SHAPE.test(v.trim()) ? true : t("auth.emailInvalid")),
          })}
        />
        <TextField
          label={t("auth.password")}
          type="password"
          autoComplete="new-password"
          hint={t("auth.signUp.passwordHint")}
          error={errors.password?.message}
          {...register("password", { validate: (v) => (v === "" ? t("auth.passwordRequired") : true) })}
        />
        {signUp.isError && <FormAlert>{errorText(signUp.error)}</FormAlert>}
        <button type="submit" className="button button-primary button-block" disabled={signUp.isPending}>
          {signUp.isPending ? t("auth.signUp.pending") : t("auth.signUp.submit")}
        </button>
        <p className="form-text form-text-small">{t("auth.signUp.terms")}</p>
      </form>
    </AuthCard>
  );
}
