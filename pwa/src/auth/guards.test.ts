import { describe, expect, test } from "vitest";
import { fakeMe } from "../test/fakeServer";
import { decideAppRoute, decideGuestRoute, decideOnboardingRoute, onboardingPath, safeRedirect, type GuardDecision } from "./guards";

const allow: GuardDecision = { kind: "allow" };
const to = (path: string, extra: object = {}): GuardDecision => ({ kind: "redirect", to: path, ...extra }) as GuardDecision;

const signedOut = null;
const done = fakeMe();
const atStep = (step: string) => fakeMe({ step, completed: false });

describe("onboardingPath", () => {
  test.each([
    ["verify_email", "/signup/verify"],
    ["security_totp", "/onboarding/2fa"],
    ["security_passkey", "/onboarding/passkey"],
    ["personal_info", "/onboarding/personal-info"],
    ["billing", "/onboarding/card-check"],
    ["a-step-from-a-newer-server", "/onboarding"],
    ["done", "/"],
  ])("step %s belongs at %s", (step, path) => {
    expect(onboardingPath({ step, completed: step === "done" })).toBe(path);
  });

  test("completed wins over the step", () => {
    expect(onboardingPath({ step: "personal_info", completed: true })).toBe("/");
  });
});

describe("the signed-in app's screens (dashboard, profile, admin)", () => {
  test.each([
    ["a signed-out visitor on / goes to /signin", signedOut, "/", to("/signin")],
    ["a signed-out visitor on /profile goes to /signin and comes back after", signedOut, "/profile", to("/signin", { search: { redirect: "/profile" } })],
    ["the way back keeps the query", signedOut, "/admin/users?page=2", to("/signin", { search: { redirect: "/admin/users?page=2" } })],
    ["a user who must still verify the e-mail goes to the code", atStep("verify_email"), "/", to("/signup/verify")],
    ["a user at the authenticator step goes there", atStep("security_totp"), "/profile", to("/onboarding/2fa")],
    ["a user at the passkey step goes there", atStep("security_passkey"), "/", to("/onboarding/passkey")],
    ["a user at the identity step goes there", atStep("personal_info"), "/admin", to("/onboarding/personal-info")],
    ["a user who finished onboarding comes in", done, "/profile", allow],
  ])("%s", (_name, me, href, decision) => {
    expect(decideAppRoute(me, href)).toEqual(decision);
  });
});

describe("/signin and /signup", () => {
  test.each([
    ["a visitor stays", signedOut, undefined, allow],
    ["a signed-in user goes to the dashboard (spec: after sign-in, /)", done, undefined, to("/")],
    ["a signed-in user goes back to the page first asked for", done, "/profile", { kind: "redirect-href", href: "/profile" }],
    ["an unsafe way back is ignored", done, "//evil.example/", to("/")],
    ["a user with unfinished onboarding goes on at the step", atStep("security_passkey"), "/profile", to("/onboarding/passkey")],
  ] as const)("%s", (_name, me, redirect, decision) => {
    expect(decideGuestRoute(me, redirect)).toEqual(decision);
  });
});

describe("the onboarding screens", () => {
  test.each([
    ["a visitor at a step goes to /signin", signedOut, "security_totp", to("/signin")],
    ["a visitor at the e-mail code goes to /signup", signedOut, "verify_email", to("/signup")],
    ["the current step's screen opens", atStep("security_totp"), "security_totp", allow],
    ["another step's screen sends to the current one (no skipping ahead)", atStep("security_totp"), "personal_info", to("/onboarding/2fa")],
    ["a step already done sends to the current one (reload resumes)", atStep("personal_info"), "security_totp", to("/onboarding/personal-info")],
    ["the intro opens at any step after the e-mail", atStep("security_passkey"), "intro", allow],
    ["the intro waits for the e-mail code", atStep("verify_email"), "intro", to("/signup/verify")],
    ["the intro opens at the billing step", atStep("billing"), "intro", allow],
    ["the card check opens at the billing step", atStep("billing"), "billing", allow],
    ["the e-mail code screen opens at its step", atStep("verify_email"), "verify_email", allow],
    ["the e-mail code screen is gone once verified", atStep("security_totp"), "verify_email", to("/onboarding/2fa")],
    ["onboarding is over once done", done, "intro", to("/")],
    ["a step screen is over once done", done, "personal_info", to("/")],
  ] as const)("%s", (_name, me, screen, decision) => {
    expect(decideOnboardingRoute(me, screen)).toEqual(decision);
  });

  test("a visitor who has just signed up reaches the e-mail code screen with the address", () => {
    expect(decideOnboardingRoute(signedOut, "verify_email", "ana@example.com")).toEqual(allow);
    expect(decideOnboardingRoute(signedOut, "security_totp", "ana@example.com")).toEqual(to("/signin"));
    expect(decideOnboardingRoute(atStep("security_totp"), "verify_email", "ana@example.com")).toEqual(to("/onboarding/2fa"));
  });
});

describe("safeRedirect", () => {
  test.each([
    ["/profile", "/profile"],
    ["/admin/users?search=ana#top", "/admin/users?search=ana#top"],
    ["/", "/"],
    ["//evil.example", undefined],
    ["/\\evil.example", undefined],
    ["https://evil.example/", undefined],
    ["javascript:alert(1)", undefined],
    ["profile", undefined],
    ["/signin", undefined],
    ["/signup?redirect=/x", undefined],
    ["/signing-rules", "/signing-rules"],
    ["/a\nb", undefined],
    [42, undefined],
  ])("%j → %j", (input, output) => {
    expect(safeRedirect(input)).toBe(output);
  });
});
