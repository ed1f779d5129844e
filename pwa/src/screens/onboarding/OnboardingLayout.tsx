// The frame of the onboarding screens: where the user is among the steps, then the step itself.
// When the screen changes (a step done or skipped, the intro's "Start"), the control that was used
// goes away with its screen: focus goes to the new screen's heading instead of falling to the page.
import { useQuery } from "@tanstack/react-query";
import { Outlet, useRouterState } from "@tanstack/react-router";
import { useEffect, useRef } from "react";
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
  const { steps, current } = onboardingProgress(step, step === "billing" || billing.data?.enabled === true, billing.data?.cardVerified === true, me?.provider === "clerk");
  // A security step passed without its factor was skipped: no check mark (skipped is not done).
  const passkeys = usePasskeys();
  const skipped = skippedSteps(me, passkeys.data?.length).map((s) => steps.findIndex((p) => p.step === s));
  const frame = useRef<HTMLDivElement>(null);
  useFocusHeadingOnScreenChange(frame);
  return (
    <div ref={frame} className={cx(page.page, page.narrow)}>
      <Stepper className={styles.stepper} steps={steps.map((s) => t(s.labelKey))} current={current} skipped={skipped} label={t("onboarding.progress.label")} />
      <Outlet />
    </div>
  );
}

/** After a change of screen inside `frame` (not on arrival), focus goes to the new screen's h1 once
 * it is shown (a screen may show it after its data arrives). */
function useFocusHeadingOnScreenChange(frame: React.RefObject<HTMLElement | null>) {
  // The location once the router has loaded its screen (the location itself changes before that,
  // while the old screen is still shown).
  const pathname = useRouterState({ select: (s) => s.resolvedLocation?.pathname });
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    const arrival = shown.current === undefined;
    shown.current = pathname;
    // The first screen resolved after the frame appeared is an arrival: its focus is the page's own.
    if (arrival) return;
    const root = frame.current;
    if (!root) return;
    const focusHeading = () => {
      const heading = root.querySelector<HTMLElement>("h1");
      if (!heading) return false;
      if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
      heading.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname, frame]);
}
