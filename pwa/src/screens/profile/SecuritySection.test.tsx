// The profile's authenticator setting through the real app, against the fake /api/v1: the server asks
// for a recent proof of identity before it sets up an authenticator (issue 11's review), and the
// re-verification dialog opens by itself, like for the other sensitive actions.
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, test } from "vitest";
import { createFakeServer, error, FAKE_PROOF, json, type FakeHandler } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

// The re-verification dialog and the toasts load on demand; loaded once here so that a test waits for
// the app, not for the test runner compiling them.
beforeAll(() => Promise.all([import("../../auth/reverify/ReverifyDialog"), import("../../toast/sonnerToaster")]));

/** POST /auth/totp/setup as the server answers it: a recent proof first. */
const totpSetup: FakeHandler = (_body, state) =>
  state.reverified
    ? json(200, { secret: "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", otpauthUrl: "otpauth://totp/Patrimonio:ana@example.com", qrPng: "data:image/png;base64,AA==" })
    : error(403, "reverification_required", "Confirma tu identidad para continuar.");

describe("the authenticator setting", () => {
  test("setting one up asks for a proof when the server wants one, then shows the QR code", async () => {
    const server = createFakeServer({ handlers: { "POST /auth/totp/setup": totpSetup } });
    await renderApp("/profile", "es", server);
    fireEvent.click(within(await screen.findByTestId("totp-setting")).getByRole("button", { name: "Configurar" }));

    const dialog = await screen.findByRole("dialog", { name: "Confirma que eres tú" });
    fireEvent.change(within(dialog).getByLabelText("Contraseña"), { target: { value: FAKE_PROOF.password } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    expect(await screen.findByTestId("totp-qr")).toBeTruthy();
    expect(server.state.calls.filter((c) => c === "POST /auth/totp/setup")).toHaveLength(2);
  });

  test("cancelled, the proof leaves the setting saying why, and trying again asks again", async () => {
    const server = createFakeServer({ handlers: { "POST /auth/totp/setup": totpSetup } });
    await renderApp("/profile", "es", server);
    const setting = await screen.findByTestId("totp-setting");
    fireEvent.click(within(setting).getByRole("button", { name: "Configurar" }));
    fireEvent.click(within(await screen.findByRole("dialog", { name: "Confirma que eres tú" })).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await within(setting).findByText("Confirma tu identidad para continuar.")).toBeTruthy();
    expect(screen.queryByTestId("totp-qr")).toBeNull();

    fireEvent.click(within(setting).getByRole("button", { name: "Reintentar" }));
    expect(await screen.findByRole("dialog", { name: "Confirma que eres tú" })).toBeTruthy();
  });
});
