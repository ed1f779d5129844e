// /onboarding/passkey: create a passkey (skippable).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fingerprint } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { queryKeys } from "../../api/queries";
import { useErrorText } from "../../api/useErrorText";
import { registerPasskey } from "../../auth/passkeys";
import { isWebAuthnCancel, webauthnSupported } from "../../auth/webauthn";
import formStyles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import styles from "./Onboarding.module.css";
import { useCompleteStep } from "./useCompleteStep";

export function PasskeyScreen() {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const completeStep = useCompleteStep("security_passkey");
  const supported = webauthnSupported();

  // The browser's ceremony and the step's progress, not one API call: kept here, not in api/.
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
    <Card title={t("onboarding.passkey.title")} description={t("onboarding.passkey.subtitle")} icon={<Fingerprint size={20} />} headingLevel={1}>
      <ul className={styles.benefits}>
        <li>{t("onboarding.passkey.benefit1")}</li>
        <li>{t("onboarding.passkey.benefit2")}</li>
        <li>{t("onboarding.passkey.benefit3")}</li>
      </ul>
      {!supported && <Alert tone="info">{t("passkeys.unsupported")}</Alert>}
      {create.isError &&
        (isWebAuthnCancel(create.error) ? <Alert tone="info">{errorText(create.error)}</Alert> : <FormError error={create.error} />)}
      {skip.isError && <FormError error={skip.error} />}
      <div className={formStyles.actions}>
        <Button variant="ghost" onClick={() => skip.mutate()} disabled={busy}>
          {t("onboarding.skip")}
        </Button>
        {supported && (
          <Button variant="primary" icon={<Fingerprint size={16} />} onClick={() => create.mutate()} disabled={busy} loading={create.isPending} loadingText={t("passkeys.creating")}>
            {t("onboarding.passkey.create")}
          </Button>
        )}
      </div>
    </Card>
  );
}
