// The personal identity step through the real app (against the fake /api/v1): saved, it goes on to
// the next step without the form's "discard the changes?" question, which guards only unsaved changes.
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { beforeAll, describe, expect, test } from "vitest";
import type { Me } from "../../api/types";
import { createFakeServer, fakeMe, json } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

// The screens this test passes through load on demand; loaded once here so that the test waits for the
// app, not for the test runner compiling them.
beforeAll(() =>
  Promise.all([
    import("../../router/screens/OnboardingRoute"),
    import("./PersonalInfoScreen"),
    import("../DashboardScreen"),
    import("../../shell/syncModules").then((m) => m.loadSyncModules()),
  ]),
);

// The whole app in jsdom: slow on a busy two-core machine, like the other whole-app tests.
describe("the personal identity step", { timeout: 20_000 }, () => {
  test("saved, it moves on to the dashboard without asking to discard anything", async () => {
    const server = createFakeServer({
      me: fakeMe({ user: { firstName: null }, step: "personal_info", completed: false }),
      handlers: {
        "PATCH /users/": (body, state) => {
          const b = body as Record<string, string>;
          const me = state.me as Me;
          me.user = { ...me.user, firstName: b.first_name ?? null };
          return json(200, { user: me.user });
        },
        "POST /onboarding/advance": (_body, state) => {
          const me = state.me as Me;
          me.onboarding = { step: "done", completed: true };
          return json(200, { onboarding: me.onboarding });
        },
      },
    });
    const { router } = await renderApp("/onboarding/personal-info", "es", server);
    const name = await screen.findByRole("textbox", { name: /^Nombre/ }, { timeout: 10_000 });
    fireEvent.change(name, { target: { value: "Ana" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continuar" })));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"), { timeout: 10_000 });
    expect(server.state.calls).toContain("POST /onboarding/advance");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });
});
