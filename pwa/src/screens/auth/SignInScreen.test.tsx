// Sign-in through the real app against the fake /api/v1: the password, the second factor when the
// account has one, and the way back to the page first asked for.
// The dashboard reads the device database: the file gets one (jsdom has none).
import "../../test/deviceDatabase";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, test, vi } from "vitest";
import { queryKeys } from "../../api/queryKeys";
import { SESSION_CHANGED_EVENT } from "../../auth/signOut";
import type { FakeServerState } from "../../test/fakeServer";
import { createFakeServer, error, fakeMe } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

function serverWithAccount({ totp }: { totp: boolean }) {
  let pending = false;
  return createFakeServer({
    me: null,
    handlers: {
      "POST /auth/signin": (body, state: FakeServerState) => {
        const { email, password } = body as { email: string; password: string };
        if (email !== "ana@example.com" || password !== "correct horse") {
          return error(401, "unauthorized", "El correo electrónico o la contraseña no son correctos.");
        }
        if (totp) {
          pending = true;
          return Response.json({ user: fakeMe().user, mfaRequired: true });
        }
        state.me = fakeMe();
        return Response.json({ user: state.me.user, mfaRequired: false });
      },
      "POST /auth/signin/totp": (body, state: FakeServerState) => {
        if (!pending || (body as { code?: string }).code !== "246810") return error(400, "invalid", "El código no es correcto.");
        state.me = fakeMe({ user: { totpEnabled: true } });
        return Response.json({ user: state.me.user, mfaRequired: false });
      },
    },
  });
}

async function fillCredentials(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText(/^Correo electrónico/), { target: { value: email } });
  fireEvent.change(screen.getByLabelText(/^Contraseña/), { target: { value: password } });
  fireEvent.click(screen.getByRole("button", { name: "Entrar" }));
}

describe("sign-in", () => {
  test("an empty form says what is missing without asking the server", async () => {
    const server = serverWithAccount({ totp: false });
    await renderApp("/signin", "es", server);
    fireEvent.click(await screen.findByRole("button", { name: "Entrar" }));
    expect(await screen.findByText("Introduce tu correo electrónico")).toBeTruthy();
    expect(screen.getByText("Introduce tu contraseña")).toBeTruthy();
    expect(screen.getByLabelText(/^Correo electrónico/).getAttribute("aria-invalid")).toBe("true");
    expect(server.state.calls).not.toContain("POST /auth/signin");
  });

  test("a wrong password shows the server's message and stays", async () => {
    const { router } = await renderApp("/signin", "es", serverWithAccount({ totp: false }));
    await fillCredentials("ana@example.com", "wrong");
    expect((await screen.findByRole("alert")).textContent).toBe("El correo electrónico o la contraseña no son correctos.");
    expect(router.state.location.pathname).toBe("/signin");
  });

  test("the right password goes back to the page first asked for", async () => {
    const { router } = await renderApp("/profile", "es", serverWithAccount({ totp: false }));
    expect(router.state.location.pathname).toBe("/signin");
    await fillCredentials("ana@example.com", "correct horse");
    await waitFor(() => expect(router.state.location.pathname).toBe("/profile"));
  });

  test("a sign-in forgets what the tab held for an earlier session (its queries, its unlocked vaults)", async () => {
    const { queryClient } = await renderApp("/signin", "es", serverWithAccount({ totp: false }));
    // Left over from someone whose session ended in this tab.
    queryClient.setQueryData(queryKeys.passkeys, [{ id: "pk-earlier", name: "Llave de otra persona" }]);
    queryClient.setQueryData(queryKeys.stripeProducts, []);
    const changed = vi.fn();
    window.addEventListener(SESSION_CHANGED_EVENT, changed);
    try {
      await fillCredentials("ana@example.com", "correct horse");
      await screen.findByTestId("dashboard-empty");
      expect(queryClient.getQueryData(queryKeys.passkeys)).toBeUndefined();
      // What belongs to nobody stays.
      expect(queryClient.getQueryData(queryKeys.stripeProducts)).toEqual([]);
      expect(changed).toHaveBeenCalledTimes(1);
    } finally {
      window.removeEventListener(SESSION_CHANGED_EVENT, changed);
    }
  });

  test("an account with an authenticator app asks for its code, then lands on the dashboard", async () => {
    const server = serverWithAccount({ totp: true });
    const { router } = await renderApp("/signin", "es", server);
    await fillCredentials("ana@example.com", "correct horse");
    expect(await screen.findByRole("heading", { name: "Verificación en dos pasos" })).toBeTruthy();

    fireEvent.change(screen.getByLabelText(/^Código de autenticación/), { target: { value: "135790" } });
    fireEvent.click(screen.getByRole("button", { name: "Verificar" }));
    expect((await screen.findByRole("alert")).textContent).toBe("El código no es correcto.");

    fireEvent.change(screen.getByLabelText(/^Código de autenticación/), { target: { value: "246810" } });
    fireEvent.click(screen.getByRole("button", { name: "Verificar" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/"));
    expect(await screen.findByTestId("dashboard-empty")).toBeTruthy();
  });

  test("a recovery code can stand in for the authenticator code", async () => {
    const server = serverWithAccount({ totp: true });
    await renderApp("/signin", "en", server);
    fireEvent.change(await screen.findByLabelText(/^E-mail/), { target: { value: "ana@example.com" } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: "correct horse" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    fireEvent.click(await screen.findByRole("button", { name: "Use a recovery code instead" }));
    fireEvent.change(screen.getByLabelText(/^Recovery code/), { target: { value: "abcd-efgh" } });
    fireEvent.click(screen.getByRole("button", { name: "Verify" }));
    await waitFor(() => expect(server.state.calls).toContain("POST /auth/signin/totp"));
    expect(server.state.bodies[server.state.calls.indexOf("POST /auth/signin/totp")]).toEqual({ recoveryCode: "abcd-efgh" });
  });
});
