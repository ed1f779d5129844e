// Moving from one onboarding step to the next: the button pressed goes away with its step, so focus
// goes to the new step's heading (a keyboard or screen-reader user learns where they are and goes on
// from there) instead of falling to the page.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeAll, describe, expect, test } from "vitest";
import type { Me } from "../../api/types";
import { createFakeServer, fakeMe, json } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

beforeAll(() =>
  Promise.all([
    import("../../router/screens/OnboardingRoute"),
    import("./PasskeyScreen"),
    import("./PersonalInfoScreen"),
    import("./OnboardingIntro"),
    import("../../shell/syncModules").then((m) => m.loadSyncModules()),
  ]),
);

function advancingServer(from: string, to: string) {
  return createFakeServer({
    me: fakeMe({ step: from, completed: false }),
    handlers: {
      "POST /onboarding/advance": (_body, state) => {
        const me = state.me as Me;
        me.onboarding = { step: to, completed: false };
        return json(200, { onboarding: me.onboarding });
      },
    },
  });
}

// The whole app in jsdom: slow on a busy two-core machine, like the other whole-app tests.
describe("focus when the onboarding step changes", { timeout: 20_000 }, () => {
  test("skipping the passkey puts focus on the personal identity step's heading", async () => {
    const { router } = await renderApp("/onboarding/passkey", "es", advancingServer("security_passkey", "personal_info"));
    const skip = await screen.findByRole("button", { name: "Omitir por ahora" }, { timeout: 10_000 });
    skip.focus();
    await act(async () => fireEvent.click(skip));
    await waitFor(() => expect(router.state.location.pathname).toBe("/onboarding/personal-info"), { timeout: 10_000 });
    const heading = await screen.findByRole("heading", { level: 1, name: "Tu identidad personal" }, { timeout: 10_000 });
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  test("the first screen opened keeps the page's own focus (nothing is moved on arrival)", async () => {
    await renderApp("/onboarding/personal-info", "es", advancingServer("personal_info", "done"));
    const heading = await screen.findByRole("heading", { level: 1, name: "Tu identidad personal" }, { timeout: 10_000 });
    expect(document.activeElement).not.toBe(heading);
  });
});
