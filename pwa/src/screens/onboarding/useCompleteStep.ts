import { useNavigate } from "@tanstack/react-router";
import { useCallback } from "react";
import { useAdvanceOnboardingMutation } from "../../api/auth";
import { onboardingPath, type OnboardingRouteStep } from "../../auth/guards";
import { useRefreshMe } from "../../auth/useSession";

/**
 * Finishes (or skips) an onboarding step on the server and goes to the next one. The server keeps
 * the progress; when the step's own action already moved it on, nothing is advanced twice.
 */
export function useCompleteStep(step: OnboardingRouteStep): (action: "complete" | "skip") => Promise<void> {
  const refreshMe = useRefreshMe();
  const navigate = useNavigate();
  const { mutateAsync: advance } = useAdvanceOnboardingMutation();
  return useCallback(
    async (action) => {
      let me = await refreshMe();
      if (me && !me.onboarding.completed && me.onboarding.step === step) {
        await advance({ step, action });
        me = await refreshMe();
      }
      // The step's own way on (its form was just saved): the form's LeaveGuard does not ask.
      await navigate({ to: me ? onboardingPath(me.onboarding) : "/signin", replace: true, ignoreBlocker: true });
    },
    [advance, navigate, refreshMe, step],
  );
}
