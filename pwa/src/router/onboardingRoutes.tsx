// /onboarding and its steps, in the plain layout. Only the server's current step opens; the intro
// opens at any step. Each step's code loads when it is visited (or preloaded on intent).
import { onlineManager } from "@tanstack/react-query";
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { oneOf, searchSchema, text } from "./search";
import { stripeProductsQuery } from "../api/billing";
import { decideBillingStatusRoute, decideOnboardingRoute, type OnboardingRouteStep } from "../auth/guards";
import { loadSyncModules } from "../shell/syncModules";
import { ROUTER_DEFAULTS } from "./config";
import { RoutePending } from "./RoutePending";
import { enforce, loadMeForGuard, publicLayoutRoute, type RouterContext } from "./root";

function guardStep(screen: "intro" | OnboardingRouteStep) {
  return async ({ context }: { context: RouterContext }) => enforce(decideOnboardingRoute(await loadMeForGuard(context), screen));
}

export const onboardingRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: "/onboarding",
  // The frame's progress bar names the steps, the billing ones included (OnboardingLayout).
  staticData: { titleKey: "shell.titles.onboarding", locales: ["onboarding", "billing"] },
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

/** ?checkout=success|cancel&session_id=…: the way back from Stripe Checkout. */
export const checkoutReturnSchema = searchSchema({
  checkout: oneOf("success", "cancel"),
  session_id: text({ max: 255 }),
});

// With billing on (issue 14): the card check (1 US dollar), the plan, and the subscription's status.
export const onboardingCardCheckRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/card-check",
  validateSearch: (search) => checkoutReturnSchema.parse(search),
  beforeLoad: guardStep("billing"),
  staticData: { titleKey: "billing.titles.cardCheck", locales: ["billing", "onboarding"] },
  component: lazyRouteComponent(() => import("../screens/onboarding/CardCheckScreen"), "CardCheckScreen"),
});

/** /onboarding/suscription (the spec's spelling): the plans, loaded before the screen shows. */
export const onboardingSubscriptionRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/suscription",
  validateSearch: (search) => checkoutReturnSchema.parse(search),
  beforeLoad: guardStep("billing"),
  // Offline the plans' query would wait for a network, and the route with it (a spinner for good):
  // the screen opens at once and says that paying needs a connection; the plans come when it does.
  loader: ({ context }) => (onlineManager.isOnline() ? context.queryClient.ensureQueryData(stripeProductsQuery(context.api)) : undefined),
  pendingComponent: RoutePending,
  pendingMs: ROUTER_DEFAULTS.defaultPendingMs,
  pendingMinMs: ROUTER_DEFAULTS.defaultPendingMinMs,
  errorComponent: lazyRouteComponent(() => import("../screens/onboarding/SubscriptionScreen"), "SubscriptionError"),
  staticData: { titleKey: "billing.titles.plans", locales: ["billing", "onboarding"] },
  component: lazyRouteComponent(() => import("../screens/onboarding/SubscriptionScreen"), "SubscriptionScreen"),
});

export const onboardingStatusRoute = createRoute({
  getParentRoute: () => onboardingRoute,
  path: "/status",
  validateSearch: (search) => checkoutReturnSchema.parse(search),
  beforeLoad: async ({ context }) => enforce(decideBillingStatusRoute(await loadMeForGuard(context))),
  staticData: { titleKey: "billing.titles.status", locales: ["billing", "onboarding"] },
  component: lazyRouteComponent(() => import("../screens/onboarding/StatusScreen"), "StatusScreen"),
});

export const onboardingRouteTree = onboardingRoute.addChildren([
  onboardingIntroRoute,
  onboardingTotpRoute,
  onboardingPasskeyRoute,
  onboardingPersonalInfoRoute,
  onboardingCardCheckRoute,
  onboardingSubscriptionRoute,
  onboardingStatusRoute,
]);
