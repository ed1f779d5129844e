// The frame of the onboarding screens: where the user is among the steps, then the step itself.
import { Outlet } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useMe, usePasskeys } from "../../api/queries";
import { skippedSteps } from "../../auth/onboardingProgress";
import { Stepper } from "../../ui/Stepper";
import { cx } from "../../ui/cx";
import page from "../page.module.css";
import styles from "./Onboarding.module.css";

/** The steps shown in the progress bar, in the server's order. */
export const PROGRESS_STEPS = [
  { step: "security_totp", labelKey: "onboarding.progress.totp" },
  { step: "security_passkey", labelKey: "onboarding.progress.passkey" },
  { step: "personal_info", labelKey: "onboarding.progress.personalInfo" },
] as const;

export function OnboardingLayout() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const step = me?.onboarding.step;
  // A step after these (billing, from a later issue) means all of them are done.
  const found = PROGRESS_STEPS.findIndex((s) => s.step === step);
  const current = found >= 0 ? found : step === undefined || step === "verify_email" ? -1 : PROGRESS_STEPS.length;
  // A security step passed without its factor was skipped: no check mark (skipped is not done).
  const passkeys = usePasskeys();
  const skipped = skippedSteps(me, passkeys.data?.length).map((s) => PROGRESS_STEPS.findIndex((p) => p.step === s));
  return (
    <div className={cx(page.page, page.narrow)}>
      <Stepper className={styles.stepper} steps={PROGRESS_STEPS.map((s) => t(s.labelKey))} current={current} skipped={skipped} label={t("onboarding.progress.label")} />
      <Outlet />
    </div>
  );
}
