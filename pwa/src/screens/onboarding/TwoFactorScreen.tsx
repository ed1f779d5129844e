// /onboarding/2fa: set up an authenticator app (skippable).
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useErrorText } from "../../api/useErrorText";
import { TotpSetup } from "../../auth/TotpSetup";
import { FormAlert } from "../../forms/fields";
import { useCompleteStep } from "./useCompleteStep";

export function TwoFactorScreen() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const completeStep = useCompleteStep("security_totp");
  const advance = useMutation({ mutationFn: completeStep });
  return (
    <section className="card onboarding-card" aria-labelledby="totp-title">
      <div className="card-head">
        <h1 id="totp-title" className="card-title">
          {t("onboarding.totp.title")}
        </h1>
        <p className="card-subtitle">{t("onboarding.totp.subtitle")}</p>
      </div>
      {advance.isError && <FormAlert>{errorText(advance.error)}</FormAlert>}
      <TotpSetup
        onFinished={() => advance.mutateAsync("complete").then(() => undefined, () => undefined)}
        secondaryAction={
          <button type="button" className="button button-ghost" onClick={() => advance.mutate("skip")} disabled={advance.isPending}>
            {t("onboarding.skip")}
          </button>
        }
      />
    </section>
  );
}
