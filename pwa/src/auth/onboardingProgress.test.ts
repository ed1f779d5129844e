import { describe, expect, test } from "vitest";
import { fakeMe } from "../test/fakeServer";
import { onboardingProgress, skippedSteps } from "./onboardingProgress";

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

describe("onboardingProgress", () => {
  const names = (p: ReturnType<typeof onboardingProgress>) => p.steps.map((s) => s.step);

  test("the built-in provider shows the security steps before the personal identity", () => {
    const p = onboardingProgress("personal_info", false, false);
    expect(names(p)).toEqual(["security_totp", "security_passkey", "personal_info"]);
    expect(p.current).toBe(2);
  });

  test("with the hosted provider (its own second factors) the onboarding starts at the personal identity", () => {
    const p = onboardingProgress("personal_info", true, false, true);
    expect(names(p)).toEqual(["personal_info", "billing_card_check", "billing_plan"]);
    expect(p.current).toBe(0);
    expect(onboardingProgress("billing", true, true, true).current).toBe(2);
  });

  test("nor are its security steps called skipped", () => {
    const me = fakeMe({ user: { totpEnabled: false }, step: "personal_info", completed: false });
    expect(skippedSteps(me, 0)).toEqual(["security_totp", "security_passkey"]);
    expect(skippedSteps({ ...me, provider: "clerk" }, 0)).toEqual([]);
  });
});
