// /signup/verify: the 6-digit code sent to the new account's e-mail address, with a resend link.
// Then on to the onboarding intro at its security section (spec: /onboarding#/security).
import { useMutation } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { MailCheck } from "lucide-react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { useMe } from "../../api/queries";
import { useErrorText } from "../../api/useErrorText";
import { AFTER_SIGN_UP } from "../../auth/guards";
import { TOTP_CODE_PATTERN } from "../../auth/totpCode";
import { useRefreshMe } from "../../auth/useSession";
import { FormAlert, TextField } from "../../forms/fields";
import { notify } from "../../toast/toast";
import { AuthCard } from "./AuthCard";

export function VerifyEmailScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const navigate = useNavigate();
  const refreshMe = useRefreshMe();
  const errorText = useErrorText();
  const { data: me } = useMe();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ code: string }>({ defaultValues: { code: "" } });

  const verify = useMutation({
    mutationFn: (code: string) => endpoints.verifyEmail(api, code),
    onSuccess: async () => {
      await refreshMe();
      await navigate({ ...AFTER_SIGN_UP, replace: true });
    },
  });

  const resend = useMutation({
    mutationFn: () => endpoints.resendEmailCode(api),
    onSuccess: () => notify("success", t("auth.verifyEmail.resent")),
    onError: (error) => notify("error", errorText(error)),
  });

  return (
    <AuthCard title={t("auth.verifyEmail.title")} subtitle={t("auth.verifyEmail.subtitle", { email: me?.user.email ?? "" })}>
      <div className="auth-illustration" aria-hidden="true">
        <MailCheck size={28} />
      </div>
      <form className="form" noValidate onSubmit={handleSubmit((values) => verify.mutate(values.code.trim()))}>
        <TextField
          label={t("auth.verifyEmail.codeLabel")}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          className="input-code"
          error={errors.code?.message}
          {...register("code", { validate: (v) => (TOTP_CODE_PATTERN.test(v.trim()) ? true : t("auth.codeInvalid")) })}
        />
        {verify.isError && <FormAlert>{errorText(verify.error)}</FormAlert>}
        <button type="submit" className="button button-primary button-block" disabled={verify.isPending}>
          {verify.isPending ? t("common.checking") : t("auth.verifyEmail.submit")}
        </button>
        <p className="form-text form-text-small">
          {t("auth.verifyEmail.noCode")}{" "}
          <button type="button" className="link-button" onClick={() => resend.mutate()} disabled={resend.isPending}>
            {t("auth.verifyEmail.resend")}
          </button>
        </p>
      </form>
    </AuthCard>
  );
}
