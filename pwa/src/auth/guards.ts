// Who may open which screen, decided from /me alone (pure functions; the routes' beforeLoad hooks
// turn a redirect decision into a router redirect). Progress through onboarding is kept by the
// server, so a reload resumes at the same step.
import type { Me, OnboardingState } from "../api/types";

/** Where each onboarding step is done. */
export const STEP_PATHS = {
  verify_email: "/signup/verify",
  security_totp: "/onboarding/2fa",
  security_passkey: "/onboarding/passkey",
  personal_info: "/onboarding/personal-info",
  /** With billing on: the card check, then the plan (/onboarding/suscription) and its status. */
  billing: "/onboarding/card-check",
} as const;

export type StepPath = (typeof STEP_PATHS)[keyof typeof STEP_PATHS];
export type OnboardingRouteStep = keyof typeof STEP_PATHS;
/** Paths a guard may send someone to. */
export type GuardPath = "/" | "/signin" | "/signup" | "/onboarding" | StepPath;

export const SIGN_IN_PATH = "/signin";
/** After sign-in (spec). */
export const AFTER_SIGN_IN_PATH = "/";
/** After sign-up (spec): the onboarding intro, at its security section. */
export const AFTER_SIGN_UP = { to: "/onboarding", hash: "/security" } as const;

export type GuardDecision =
  | { kind: "allow" }
  | { kind: "redirect"; to: GuardPath; search?: { redirect: string }; hash?: string }
  /** To a path taken from the ?redirect= of the sign-in page (already checked by safeRedirect). */
  | { kind: "redirect-href"; href: string };

const ALLOW: GuardDecision = { kind: "allow" };

function isKnownStep(step: string): step is OnboardingRouteStep {
  return Object.hasOwn(STEP_PATHS, step);
}

/**
 * The path where a user with this onboarding state belongs: the dashboard once onboarding is done,
 * else the screen of the current step. A step this client has no screen for (from a newer server)
 * goes to the onboarding intro.
 */
export function onboardingPath(onboarding: OnboardingState): GuardPath {
  if (onboarding.completed || onboarding.step === "done") return "/";
  return isKnownStep(onboarding.step) ? STEP_PATHS[onboarding.step] : "/onboarding";
}

/**
 * A same-origin path to return to after sign-in, or undefined. Refuses absolute and
 * protocol-relative URLs ("//evil.example", "/\\evil.example"), which would leave the app, and the
 * sign-in and sign-up pages themselves.
 */
export function safeRedirect(value: unknown): string | undefined {
  if (typeof value !== "string" || !value.startsWith("/")) return undefined;
  if (value.startsWith("//") || value.startsWith("/\\")) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters never belong in a path
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  if (/^\/(signin|signup)(?=$|[/?#])/.test(value)) return undefined;
  return value;
}

/** Screens of the signed-in app (dashboard, profile, admin): signed in and onboarding done. */
export function decideAppRoute(me: Me | null, href: string): GuardDecision {
  if (!me) {
    const back = safeRedirect(href);
    return back && back !== "/" ? { kind: "redirect", to: "/signin", search: { redirect: back } } : { kind: "redirect", to: "/signin" };
  }
  const home = onboardingPath(me.onboarding);
  return home === "/" ? ALLOW : { kind: "redirect", to: home };
}

/** /signin and /signup: for visitors; a signed-in user goes on to where they belong. */
export function decideGuestRoute(me: Me | null, redirect?: string): GuardDecision {
  if (!me) return ALLOW;
  const home = onboardingPath(me.onboarding);
  if (home !== "/") return { kind: "redirect", to: home };
  const back = safeRedirect(redirect);
  return back ? { kind: "redirect-href", href: back } : { kind: "redirect", to: AFTER_SIGN_IN_PATH };
}

/**
 * The onboarding screens: `screen` is "intro" (/onboarding) or the step the screen does. Only the
 * current step's screen opens; the intro opens at any step after e-mail verification. The e-mail code
 * screen also opens for a visitor who has just signed up (`signUpEmail`, from ?email=).
 */
export function decideOnboardingRoute(me: Me | null, screen: "intro" | OnboardingRouteStep, signUpEmail?: string): GuardDecision {
  // Right after sign-up nobody is signed in yet: the e-mailed code signs in, for the address in ?email=.
  if (!me && screen === "verify_email" && signUpEmail) return ALLOW;
  if (!me) return { kind: "redirect", to: screen === "verify_email" ? "/signup" : "/signin" };
  const home = onboardingPath(me.onboarding);
  if (home === "/") return { kind: "redirect", to: "/" };
  if (screen === "intro") return me.onboarding.step === "verify_email" ? { kind: "redirect", to: home } : ALLOW;
  return me.onboarding.step === screen ? ALLOW : { kind: "redirect", to: home };
}

/**
 * /onboarding/status: the subscription's status, at the billing step (waiting for Stripe's
 * confirmation) and also once onboarding is done (the status stays readable there).
 */
export function decideBillingStatusRoute(me: Me | null): GuardDecision {
  if (!me) return { kind: "redirect", to: "/signin" };
  if (me.onboarding.completed || me.onboarding.step === "done" || me.onboarding.step === "billing") return ALLOW;
  return { kind: "redirect", to: onboardingPath(me.onboarding) };
}
