// /onboarding/2fa: set up an authenticator app (skippable). When the authenticator is already on
// (the page was reloaded after confirming its code), the step does not set up a new one: an enabled
// second factor is only replaced from the profile, after a proof with it.
import { useMutation } from "@tanstack/react-query";
import { ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useMe } from "../../api/queries";
import { useErrorText } from "../../api/useErrorText";
import { TotpSetup } from "../../auth/TotpSetup";
import { Alert } from "../../ui/Alert";
import formStyles from "../../forms/form.module.css";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import styles from "./Onboarding.module.css";
import { useCompleteStep } from "./useCompleteStep";

export function TwoFactorScreen() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { data: me } = useMe();
  // Decided once: after confirming a code here the recovery codes stay on screen even when the
  // user data is read again meanwhile.
  const [alreadyOn] = useState(() => me?.user.totpEnabled === true);
  const completeStep = useCompleteStep("security_totp");
  const advance = useMutation({ mutationFn: completeStep });
  return (
    <Card title={t("onboarding.totp.title")} description={t("onboarding.totp.subtitle")} headingLevel={1}>
      {advance.isError && <Alert>{errorText(advance.error)}</Alert>}
      {alreadyOn ? (
        <div className={styles.stack} data-testid="totp-already-on">
          <Alert tone="success" title={t("account.totp.alreadyOn")} noIcon={false}>
            {t("account.totp.alreadyOnText")}
          </Alert>
          <div className={formStyles.actions}>
            <Button variant="primary" icon={<ShieldCheck size={16} />} loading={advance.isPending} onClick={() => advance.mutate("complete")}>
              {t("account.totp.continue")}
            </Button>
          </div>
        </div>
      ) : (
        <TotpSetup
          onFinished={() => advance.mutateAsync("complete").then(() => undefined, () => undefined)}
          secondaryAction={
            <Button variant="ghost" onClick={() => advance.mutate("skip")} disabled={advance.isPending}>
              {t("onboarding.skip")}
            </Button>
          }
        />
      )}
    </Card>
  );
}
