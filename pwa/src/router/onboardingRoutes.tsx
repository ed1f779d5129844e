// /onboarding and its steps, in the plain layout. Only the server's current step opens; the intro
// opens at any step. Each step's code loads when it is visited (or preloaded on intent).
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { decideOnboardingRoute, type OnboardingRouteStep } from "../auth/guards";
import { loadSyncModules } from "../shell/syncModules";
import { enforce, loadMeForGuard, publicLayoutRoute, type RouterContext } from "./root";

function guardStep(screen: "intro" | OnboardingRouteStep) {
  return async ({ context }: { context: RouterContext }) => enforce(decideOnboardingRoute(await loadMeForGuard(context), screen));
}

export const onboardingRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: "/onboarding",
  staticData: { titleKey: "shell.titles.onboarding" },
  // The steps' forms read enumerations from the device database: it loads with the frame's code.
  component: lazyRouteComponent(
    () => Promise.all([import("./screens/OnboardingRoute"), loadSyncModules()]).then(([module]) => module),
    "OnboardingRoute",
  ),
});

export const onboardingIntroRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/",
  beforeLoad: guardStep("intro"),
  component: lazyRouteComponent(() => import("../screens/onboarding/OnboardingIntro"), "OnboardingIntro"),
});

export const onboardingTotpRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/2fa",
  beforeLoad: guardStep("security_totp"),
  staticData: { titleKey: "shell.titles.onboardingTotp" },
  component: lazyRouteComponent(() => import("../screens/onboarding/TwoFactorScreen"), "TwoFactorScreen"),
});

export const onboardingPasskeyRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/passkey",
  beforeLoad: guardStep("security_passkey"),
  staticData: { titleKey: "shell.titles.onboardingPasskey" },
  component: lazyRouteComponent(() => import("../screens/onboarding/PasskeyScreen"), "PasskeyScreen"),
});

export const onboardingPersonalInfoRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/personal-info",
  beforeLoad: guardStep("personal_info"),
  staticData: { titleKey: "shell.titles.onboardingPersonalInfo" },
  component: lazyRouteComponent(() => import("../screens/onboarding/PersonalInfoScreen"), "PersonalInfoScreen"),
});

export const onboardingRouteTree = onboardingRoute.addChildren([
  onboardingIntroRoute,
  onboardingTotpRoute,
  onboardingPasskeyRoute,
  onboardingPersonalInfoRoute,
]);
