// The frame of the onboarding screens: where the user is among the steps, then the step itself.
import { Outlet } from "@tanstack/react-router";
import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useMe } from "../../api/queries";

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
  return (
    <div className="page page-narrow onboarding">
      <ol className="stepper" aria-label={t("onboarding.progress.label")}>
        {PROGRESS_STEPS.map((s, index) => {
          const state = index < current ? "done" : index === current ? "current" : "upcoming";
          return (
            <li key={s.step} className="stepper-item" data-state={state} aria-current={state === "current" ? "step" : undefined}>
              <span className="stepper-dot" aria-hidden="true">
                {state === "done" ? <Check size={14} /> : index + 1}
              </span>
              <span className="stepper-label">{t(s.labelKey)}</span>
              {state === "done" && <span className="visually-hidden">{t("onboarding.progress.done")}</span>}
            </li>
          );
        })}
      </ol>
      <Outlet />
    </div>
  );
}
