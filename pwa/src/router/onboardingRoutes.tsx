// /onboarding and its steps. Only the server's current step opens; the intro opens at any step.
import { createRoute } from "@tanstack/react-router";
import { decideOnboardingRoute, type OnboardingRouteStep } from "../auth/guards";
import { OnboardingIntro } from "../screens/onboarding/OnboardingIntro";
import { OnboardingLayout } from "../screens/onboarding/OnboardingLayout";
import { PasskeyScreen } from "../screens/onboarding/PasskeyScreen";
import { PersonalInfoScreen } from "../screens/onboarding/PersonalInfoScreen";
import { TwoFactorScreen } from "../screens/onboarding/TwoFactorScreen";
import { enforce, loadMeForGuard, rootRoute, type RouterContext } from "./root";

function guardStep(screen: "intro" | OnboardingRouteStep) {
  return async ({ context }: { context: RouterContext }) => enforce(decideOnboardingRoute(await loadMeForGuard(context), screen));
}

export const onboardingRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/onboarding",
  component: OnboardingLayout,
});

export const onboardingIntroRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/",
  beforeLoad: guardStep("intro"),
  component: OnboardingIntro,
});

export const onboardingTotpRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/2fa",
  beforeLoad: guardStep("security_totp"),
  component: TwoFactorScreen,
});

export const onboardingPasskeyRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/passkey",
  beforeLoad: guardStep("security_passkey"),
  component: PasskeyScreen,
});

export const onboardingPersonalInfoRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/personal-info",
  beforeLoad: guardStep("personal_info"),
  component: PersonalInfoScreen,
});

export const onboardingRouteTree = onboardingRoute.addChildren([
  onboardingIntroRoute,
  onboardingTotpRoute,
  onboardingPasskeyRoute,
  onboardingPersonalInfoRoute,
]);
