// /onboarding/passkey: create a passkey (skippable).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fingerprint } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { queryKeys } from "../../api/queries";
import { useErrorText } from "../../api/useErrorText";
import { registerPasskey } from "../../auth/passkeys";
import { isWebAuthnCancel, webauthnSupported } from "../../auth/webauthn";
import { FormAlert } from "../../forms/fields";
import { useCompleteStep } from "./useCompleteStep";

export function PasskeyScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const completeStep = useCompleteStep("security_passkey");
  const supported = webauthnSupported();

  const create = useMutation({
    mutationFn: async () => {
      await registerPasskey(api, t("passkeys.defaultName"));
      await queryClient.invalidateQueries({ queryKey: queryKeys.passkeys });
      await completeStep("complete");
    },
  });
  const skip = useMutation({ mutationFn: () => completeStep("skip") });
  const busy = create.isPending || skip.isPending;

  return (
    <section className="card onboarding-card" aria-labelledby="passkey-title">
      <div className="card-head">
        <span className="card-icon" aria-hidden="true">
          <Fingerprint size={22} />
        </span>
        <h1 id="passkey-title" className="card-title">
          {t("onboarding.passkey.title")}
        </h1>
        <p className="card-subtitle">{t("onboarding.passkey.subtitle")}</p>
      </div>
      <ul className="benefits">
        <li>{t("onboarding.passkey.benefit1")}</li>
        <li>{t("onboarding.passkey.benefit2")}</li>
        <li>{t("onboarding.passkey.benefit3")}</li>
      </ul>
      {!supported && <FormAlert kind="info">{t("passkeys.unsupported")}</FormAlert>}
      {create.isError && (
        <FormAlert kind={isWebAuthnCancel(create.error) ? "info" : "error"}>{errorText(create.error)}</FormAlert>
      )}
      {skip.isError && <FormAlert>{errorText(skip.error)}</FormAlert>}
      <div className="form-actions">
        <button type="button" className="button button-ghost" onClick={() => skip.mutate()} disabled={busy}>
          {t("onboarding.skip")}
        </button>
        {supported && (
          <button type="button" className="button button-primary" onClick={() => create.mutate()} disabled={busy}>
            <Fingerprint size={16} aria-hidden="true" />
            {create.isPending ? t("passkeys.creating") : t("onboarding.passkey.create")}
          </button>
        )}
      </div>
    </section>
  );
}
