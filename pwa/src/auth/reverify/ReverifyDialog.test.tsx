// The re-verification dialog through the real app: a sensitive call refused with
// "reverification_required" opens it by itself, and the call is sent again once the user passes it.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, test } from "vitest";
import { createFakeServer, error, fakeMe, type FakeServerState } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";
import { availableMethods } from "./ReverifyDialog";

// The re-verification dialog and the toasts load on demand (not with the first page); their modules are
// loaded once here so that a test waits for the app, not for the test runner compiling them.
beforeAll(() => Promise.all([import("./ReverifyDialog"), import("../../toast/sonnerToaster")]));

const GOOD_CODE = "123456";

/** A server where DELETE /auth/totp needs a proof, and /auth/reverify accepts GOOD_CODE or "secret". */
function serverNeedingProof(user = { totpEnabled: true, hasPassword: true }, sendEmail = () => new Response(null, { status: 204 })) {
  let proven = false;
  const server = createFakeServer({
    me: fakeMe({ user }),
    handlers: {
      "DELETE /auth/totp": (_body, state: FakeServerState) => {
        if (!proven) return error(403, "reverification_required", "Confirma que eres tú para continuar.");
        if (state.me) state.me.user.totpEnabled = false;
        return new Response(null, { status: 204 });
      },
      "POST /auth/reverify": (body) => {
        const { method, code, password } = body as { method: string; code?: string; password?: string };
        if ((method === "totp" || method === "email") && code === GOOD_CODE) proven = true;
        if (method === "password" && password === "secret") proven = true;
        if (!proven) return error(400, "invalid", "El código no es correcto.");
        return Response.json({ reverifiedUntil: "2030-01-01T10:10:00Z" });
      },
      "POST /auth/reverify/email": sendEmail,
    },
  });
  return server;
}

describe("availableMethods", () => {
  test.each([
    [{ totpEnabled: true, hasPassword: true }, ["totp", "password", "email"]],
    [{ totpEnabled: false, hasPassword: true }, ["password", "email"]],
    [{ totpEnabled: false, hasPassword: false }, ["email"]],
  ])("%j → %j", (user, methods) => {
    expect(availableMethods(user)).toEqual(methods);
  });
});

describe("the re-verification dialog", () => {
  test("opens when a sensitive call is refused, takes an authenticator code, and the call goes through", async () => {
    const server = serverNeedingProof();
    await renderApp("/profile", "es", server);
    fireEvent.click(await screen.findByRole("button", { name: "Desactivar" }));

    const dialog = await screen.findByRole("dialog", { name: "Confirma que eres tú" });
    const code = within(dialog).getByLabelText("Código de tu aplicación de autenticación");
    expect(document.activeElement).toBe(code);

    // A wrong code: the server's message, and the dialog stays.
    fireEvent.change(code, { target: { value: "000000" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    expect((await within(dialog).findByRole("alert")).textContent).toBe("El código no es correcto.");

    fireEvent.change(code, { target: { value: GOOD_CODE } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    expect(server.state.calls.filter((c) => c === "DELETE /auth/totp")).toHaveLength(2);
    expect(server.state.bodies[server.state.calls.lastIndexOf("POST /auth/reverify")]).toEqual({ method: "totp", code: GOOD_CODE });
    expect(await screen.findByText("Aplicación de autenticación desactivada")).toBeTruthy();
  });

  test("a code that is not 6 digits is caught before asking the server", async () => {
    const server = serverNeedingProof();
    await renderApp("/profile", "en", server);
    fireEvent.click(await screen.findByRole("button", { name: "Turn off" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    const code = within(dialog).getByLabelText("Code from your authenticator app");
    fireEvent.change(code, { target: { value: "12a4" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    // The shared schema's rule and message (validation.format.otpCode).
    await waitFor(() => expect(code.getAttribute("aria-invalid")).toBe("true"));
    expect(within(dialog).getByText("The code must have 6 digits")).toBeTruthy();
    expect(server.state.calls).not.toContain("POST /auth/reverify");
  });

  test("another method: the e-mailed code is sent, its resend counts down, and the code passes", async () => {
    const server = serverNeedingProof();
    await renderApp("/profile", "es", server);
    fireEvent.click(await screen.findByRole("button", { name: "Desactivar" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirma que eres tú" });

    fireEvent.click(within(dialog).getByRole("button", { name: "Usar otro método" }));
    const choices = within(dialog).getByRole("group", { name: "Otras formas de confirmar" });
    expect(within(choices).getAllByRole("button").map((b) => b.textContent)).toEqual([
      "Introducir mi contraseña",
      "Enviarme un código por correo",
      "Volver",
    ]);
    fireEvent.click(within(choices).getByRole("button", { name: "Enviarme un código por correo" }));
    expect(await within(dialog).findByText("Hemos enviado un código de 6 dígitos a ana@example.com.")).toBeTruthy();
    expect(server.state.calls.filter((c) => c === "POST /auth/reverify/email")).toHaveLength(1);

    // Resend waits out the server's cooldown, counting down, instead of asking too soon.
    const resend = within(dialog).getByRole("button", { name: /^Reenviar en \d+ s$/ });
    expect((resend as HTMLButtonElement).disabled).toBe(true);

    fireEvent.change(within(dialog).getByLabelText("Código del correo"), { target: { value: GOOD_CODE } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(server.state.bodies[server.state.calls.lastIndexOf("POST /auth/reverify")]).toEqual({ method: "email", code: GOOD_CODE });
  });

  test("a code asked for too soon (429) keeps the code field and Confirm, and counts down the wait", async () => {
    const server = serverNeedingProof({ totpEnabled: true, hasPassword: false }, () =>
      Response.json({ error: { code: "too_many_requests", message: "Espera 42 segundos antes de pedir otro código." } }, { status: 429, headers: { "Retry-After": "42" } }),
    );
    await renderApp("/profile", "es", server);
    fireEvent.click(await screen.findByRole("button", { name: "Desactivar" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirma que eres tú" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Usar otro método" }));
    fireEvent.click(within(dialog).getByRole("button", { name: "Enviarme un código por correo" }));
    const resend = await within(dialog).findByRole("button", { name: /^Reenviar en (42|41) s$/ });
    expect((resend as HTMLButtonElement).disabled).toBe(true);
    // The code already in the inbox can still be typed and confirmed.
    const code = within(dialog).getByLabelText("Código del correo");
    fireEvent.change(code, { target: { value: GOOD_CODE } });
    const confirm = within(dialog).getByRole("button", { name: "Confirmar" });
    expect((confirm as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  test("cancelling (Escape) closes the dialog and leaves the setting as it was", async () => {
    const server = serverNeedingProof();
    await renderApp("/profile", "es", server);
    const turnOff = await screen.findByRole("button", { name: "Desactivar" });
    fireEvent.click(turnOff);
    await screen.findByRole("dialog");
    await act(async () => {
      fireEvent.keyDown(document, { key: "Escape" });
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(server.state.calls.filter((c) => c === "DELETE /auth/totp")).toHaveLength(1);
    expect(server.state.me?.user.totpEnabled).toBe(true);
    expect(screen.queryByRole("alert")).toBeNull();
  });

  test("the profile's button asks for a proof up front, with the password", async () => {
    const server = serverNeedingProof({ totpEnabled: false, hasPassword: true });
    await renderApp("/profile", "en", server);
    fireEvent.click(await screen.findByRole("button", { name: "Confirm it's you" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirm it's you" });
    fireEvent.change(within(dialog).getByLabelText("Password"), { target: { value: "secret" } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirm" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(server.state.bodies[server.state.calls.lastIndexOf("POST /auth/reverify")]).toEqual({ method: "password", password: "secret" });
  });
});
