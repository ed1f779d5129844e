// Which onboarding steps the user skipped: a security step behind the current one whose factor the
// user does not have (no authenticator app, no passkey). The progress shows those without a check
// mark (issue 11): skipped is not done.
import type { Me } from "../api/types";

const ORDER = ["verify_email", "security_totp", "security_passkey", "personal_info", "billing", "done"] as const;

export function skippedSteps(me: Pick<Me, "user" | "onboarding"> | null | undefined, passkeyCount: number | undefined): string[] {
  if (!me) return [];
  const at = ORDER.indexOf(me.onboarding.step as (typeof ORDER)[number]);
  const passed = (step: (typeof ORDER)[number]) => at > ORDER.indexOf(step);
  const skipped: string[] = [];
  if (passed("security_totp") && !me.user.totpEnabled) skipped.push("security_totp");
  if (passed("security_passkey") && passkeyCount === 0) skipped.push("security_passkey");
  return skipped;
}
