// The frame of the onboarding screens: where the user is among the steps, then the step itself.
import { useQuery } from "@tanstack/react-query";
import { Outlet } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { billingStateQuery } from "../../api/billing";
import { useApi } from "../../api/ApiProvider";
import { useMe, usePasskeys } from "../../api/queries";
import { onboardingProgress, skippedSteps } from "../../auth/onboardingProgress";
import { Stepper } from "../../ui/Stepper";
import { cx } from "../../ui/cx";
import page from "../page.module.css";
import styles from "./Onboarding.module.css";

export function OnboardingLayout() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const step = me?.onboarding.step;
  // Billing on (issue 14) adds the card check and the plan; the server says so at GET /stripe/subscriptions.
  const billing = useQuery({ ...billingStateQuery(useApi()), enabled: step !== undefined && step !== "verify_email" });
  const { steps, current } = onboardingProgress(step, step === "billing" || billing.data?.enabled === true, billing.data?.cardVerified === true);
  // A security step passed without its factor was skipped: no check mark (skipped is not done).
  const passkeys = usePasskeys();
  const skipped = skippedSteps(me, passkeys.data?.length).map((s) => steps.findIndex((p) => p.step === s));
  return (
    <div className={cx(page.page, page.narrow)}>
      <Stepper className={styles.stepper} steps={steps.map((s) => t(s.labelKey))} current={current} skipped={skipped} label={t("onboarding.progress.label")} />
      <Outlet />
    </div>
  );
}
