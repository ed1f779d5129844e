import { describe, expect, test } from "vitest";
import { fakeMe } from "../test/fakeServer";
import { skippedSteps } from "./onboardingProgress";

describe("skippedSteps", () => {
  const at = (step: string, totpEnabled: boolean) => {
    const me = fakeMe({ user: { totpEnabled } });
    return { ...me, onboarding: { step, completed: step === "done" } } as typeof me;
  };
  test.each([
    ["a skipped authenticator step is skipped, not done", at("security_passkey", false), 0, ["security_totp"]],
    ["an authenticator set up is done", at("security_passkey", true), 0, []],
    ["both skipped", at("personal_info", false), 0, ["security_totp", "security_passkey"]],
    ["a passkey made is done", at("personal_info", true), 1, []],
    ["the passkeys not known yet: not claimed skipped", at("personal_info", true), undefined, []],
    ["the current step is neither", at("security_totp", false), 0, []],
  ] as const)("%s", (_name, me, passkeys, want) => {
    expect(skippedSteps(me, passkeys)).toEqual(want);
  });
});
