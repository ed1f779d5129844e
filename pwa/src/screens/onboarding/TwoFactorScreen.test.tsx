// The authenticator step reloaded after its code was confirmed (issue 11): it says the authenticator
// is on and asks the server for no new secret (which would replace the enabled one).
import { screen } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { createFakeServer, fakeMe } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

describe("the authenticator step", () => {
  test("with the authenticator already on, it sets up nothing new", async () => {
    const server = createFakeServer({ me: fakeMe({ user: { totpEnabled: true }, step: "security_totp" }) });
    await renderApp("/onboarding/2fa", "es", server);
    expect(await screen.findByText("Tu aplicación de autenticación ya está activada.")).toBeTruthy();
    expect(screen.queryByTestId("totp-qr")).toBeNull();
    expect(server.state.calls).not.toContain("POST /auth/totp/setup");
    expect(screen.getByRole("button", { name: "Continuar" })).toBeTruthy();
  });
});
