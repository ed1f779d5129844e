// Which onboarding steps the user skipped: a security step behind the current one whose factor the
// user does not have (no authenticator app, no passkey). The progress shows those without a check
// mark (issue 11): skipped is not done.
import type { Me } from "../api/types";

const ORDER = ["verify_email", "security_totp", "security_passkey", "personal_info", "billing", "done"] as const;

export function skippedSteps(me: Pick<Me, "user" | "onboarding" | "provider"> | null | undefined, passkeyCount: number | undefined): string[] {
  // With the hosted provider the security steps are the provider's: not this onboarding's, not skipped.
  if (!me || me.provider === "clerk") return [];
  const at = ORDER.indexOf(me.onboarding.step as (typeof ORDER)[number]);
  const passed = (step: (typeof ORDER)[number]) => at > ORDER.indexOf(step);
  const skipped: string[] = [];
  if (passed("security_totp") && !me.user.totpEnabled) skipped.push("security_totp");
  if (passed("security_passkey") && passkeyCount === 0) skipped.push("security_passkey");
  return skipped;
}

const SECURITY_AND_IDENTITY = [
  { step: "security_totp", labelKey: "onboarding.progress.totp" },
  { step: "security_passkey", labelKey: "onboarding.progress.passkey" },
  { step: "personal_info", labelKey: "onboarding.progress.personalInfo" },
] as const;

/** With billing on (issue 14) the server's one "billing" step is two for the person: the 1 US dollar
 * card check, then the plan. */
const BILLING = [
  { step: "billing_card_check", labelKey: "billing.progress.cardCheck" },
  { step: "billing_plan", labelKey: "billing.progress.plan" },
] as const;

/** A step of the progress bar: the server's step (for billing, which half of it) and its label. */
export type ProgressStep = (typeof SECURITY_AND_IDENTITY)[number] | (typeof BILLING)[number];

/**
 * The progress bar's steps and the index of the current one (-1 before the first, the length once
 * past the last). `billing`: billing is on (the server's "billing" step exists); at that step,
 * `cardVerified` tells the card check from the plan. `hosted`: the hosted provider (Clerk) signs the
 * user in, with its own second factors; the server starts that user's onboarding at the personal
 * identity, so the authenticator and passkey steps are not shown.
 */
export function onboardingProgress(
  step: string | undefined,
  billing: boolean,
  cardVerified: boolean,
  hosted = false,
): { steps: readonly ProgressStep[]; current: number } {
  const first = hosted ? SECURITY_AND_IDENTITY.filter((s) => s.step === "personal_info") : SECURITY_AND_IDENTITY;
  const steps: readonly ProgressStep[] = billing ? [...first, ...BILLING] : first;
  if (step === undefined || step === "verify_email") return { steps, current: -1 };
  const named = step === "billing" ? (cardVerified ? "billing_plan" : "billing_card_check") : step;
  const found = steps.findIndex((s) => s.step === named);
  // A step after these (done, or billing while billing is off) means all of them are done.
  return { steps, current: found >= 0 ? found : steps.length };
}
