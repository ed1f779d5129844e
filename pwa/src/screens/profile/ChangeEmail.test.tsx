// The change of e-mail address through the real app, against the fake /api/v1: the address, the
// re-verification the server asks for, the code sent to the new address, and the server's refusals.
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeAll, describe, expect, test } from "vitest";
import { createFakeServer, error, FAKE_EMAIL_CODE, FAKE_PROOF, fakeMe, type FakeServer } from "../../test/fakeServer";
import { renderApp } from "../../test/renderApp";

// The re-verification dialog and the toasts load on demand (not with the first page); their modules are
// loaded once here so that a test waits for the app, not for the test runner compiling them.
beforeAll(() => Promise.all([import("../../auth/reverify/ReverifyDialog"), import("../../toast/sonnerToaster")]));

function count(server: FakeServer, call: string): number {
  return server.state.calls.filter((c) => c === call).length;
}

/** The field with this label and the error text linked to it (aria-describedby), if any. */
function fieldError(input: HTMLElement): string | null {
  if (input.getAttribute("aria-invalid") !== "true") return null;
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.dataset.part === "error")?.textContent ?? null;
}

const FORM_NAMES = { "Cambiar correo": "Cambia tu dirección de correo", "Change e-mail": "Change your e-mail address" } as const;

async function openForm(buttonName: keyof typeof FORM_NAMES) {
  fireEvent.click(await screen.findByRole("button", { name: buttonName }));
  return screen.findByRole("form", { name: FORM_NAMES[buttonName] });
}

describe("changing the e-mail address", () => {
  test("asks for a proof when the server wants one, then sends the code to the new address", async () => {
    const server = createFakeServer();
    await renderApp("/profile", "es", server);
    const form = await openForm("Cambiar correo");
    const address = within(form).getByLabelText("Nueva dirección de correo");
    expect(document.activeElement).toBe(address);

    // Caught before asking anyone (the shared schema's message): nothing typed.
    fireEvent.click(within(form).getByRole("button", { name: "Enviar código" }));
    await waitFor(() => expect(fieldError(address)).toBe("Introduce tu correo electrónico"));
    expect(count(server, "POST /users/email")).toBe(0);

    // The server wants a recent proof: the dialog opens by itself, and the call goes again after it.
    fireEvent.change(address, { target: { value: " Ana.Nueva@Example.org " } });
    fireEvent.click(within(form).getByRole("button", { name: "Enviar código" }));
    const dialog = await screen.findByRole("dialog", { name: "Confirma que eres tú" });
    fireEvent.change(within(dialog).getByLabelText("Contraseña"), { target: { value: FAKE_PROOF.password } });
    fireEvent.click(within(dialog).getByRole("button", { name: "Confirmar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(count(server, "POST /users/email")).toBe(2);
    expect(server.state.bodies[server.state.calls.lastIndexOf("POST /users/email")]).toEqual({ email: "Ana.Nueva@Example.org" });

    // The code step: where the code went, and focus on its field.
    expect(await screen.findByText(/^Hemos enviado un código de 6 dígitos a ana\.nueva@example\.org\. Sirve hasta las /)).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText("Código enviado a la nueva dirección"));
    // Nothing changes until the code is confirmed.
    expect(server.state.me?.user.email).toBe("ana@example.com");
    expect(screen.getByTestId("account-email").textContent).toContain("ana@example.com");
  });

  test("a wrong code is refused under the field; the right one changes the address", async () => {
    const server = createFakeServer({ reverified: true });
    await renderApp("/profile", "es", server);
    const form = await openForm("Cambiar correo");
    fireEvent.change(within(form).getByLabelText("Nueva dirección de correo"), { target: { value: "ana.nueva@example.org" } });
    // As in a browser, the click gives the button focus; the code step then takes it to its field.
    const send = within(form).getByRole("button", { name: "Enviar código" });
    send.focus();
    fireEvent.click(send);
    const code = await screen.findByLabelText("Código enviado a la nueva dirección");
    await waitFor(() => expect(document.activeElement).toBe(code));

    fireEvent.change(code, { target: { value: "111111" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirmar el cambio" }));
    await waitFor(() => expect(fieldError(code)).toBe("El código no es correcto."));
    expect(server.state.me?.user.email).toBe("ana@example.com");

    fireEvent.change(code, { target: { value: FAKE_EMAIL_CODE } });
    fireEvent.click(screen.getByRole("button", { name: "Confirmar el cambio" }));
    expect(await screen.findByText("Tu correo ahora es ana.nueva@example.org")).toBeTruthy();
    expect(screen.getByTestId("account-email").textContent).toContain("ana.nueva@example.org");
    expect(screen.queryByRole("form", { name: "Cambia tu dirección de correo" })).toBeNull();
    // Focus goes back to where the change started.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("button", { name: "Cambiar correo" })));
  });

  test("checks the address before asking the server: not an address, or the one already in use", async () => {
    const server = createFakeServer({ reverified: true });
    await renderApp("/profile", "en", server);
    const form = await openForm("Change e-mail");
    const address = within(form).getByLabelText("New e-mail address");
    fireEvent.change(address, { target: { value: "ana.example.com" } });
    fireEvent.click(within(form).getByRole("button", { name: "Send code" }));
    await waitFor(() => expect(fieldError(address)).toBe("Invalid e-mail address"));
    fireEvent.change(address, { target: { value: " ANA@example.com " } });
    fireEvent.click(within(form).getByRole("button", { name: "Send code" }));
    await waitFor(() => expect(fieldError(address)).toBe("That is already your e-mail address"));
    expect(count(server, "POST /users/email")).toBe(0);
  });

  test("cancelling the proof leaves the form as it was, with no error shown", async () => {
    const server = createFakeServer();
    await renderApp("/profile", "en", server);
    const form = await openForm("Change e-mail");
    fireEvent.change(within(form).getByLabelText("New e-mail address"), { target: { value: "new@example.org" } });
    fireEvent.click(within(form).getByRole("button", { name: "Send code" }));
    await screen.findByRole("dialog", { name: "Confirm it's you" });
    await act(async () => {
      fireEvent.keyDown(document, { key: "Escape" });
    });
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await waitFor(() => expect(within(form).getByRole("button", { name: "Send code" }).hasAttribute("disabled")).toBe(false));
    expect(screen.queryByRole("alert")).toBeNull();
    expect(within(form).getByLabelText<HTMLInputElement>("New e-mail address").value).toBe("new@example.org");
    expect(server.state.emailChange).toBeNull();
  });

  test("counts down the wait for another code, and shows the server's refusal of an address that cannot be used", async () => {
    const server = createFakeServer({
      reverified: true,
      handlers: {
        "POST /users/email/verify": () => error(409, "conflict", "That e-mail address cannot be used. Choose another one."),
      },
    });
    await renderApp("/profile", "en", server);
    const form = await openForm("Change e-mail");
    fireEvent.change(within(form).getByLabelText("New e-mail address"), { target: { value: "taken@example.org" } });
    fireEvent.click(within(form).getByRole("button", { name: "Send code" }));
    const code = await screen.findByLabelText("Code sent to the new address");

    // Another code waits out the server's one-minute interval, counting down (issue 11).
    const resend = screen.getByRole("button", { name: /^Resend in \d+ s$/ });
    expect(resend.hasAttribute("disabled")).toBe(true);

    fireEvent.change(code, { target: { value: "654321" } });
    fireEvent.click(screen.getByRole("button", { name: "Confirm the change" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("That e-mail address cannot be used. Choose another one."));
    // Not the code's fault: the field stays valid, and another address can be tried.
    expect(code.getAttribute("aria-invalid")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Use a different address" }));
    expect(screen.getByLabelText("New e-mail address")).toBeTruthy();
    expect(screen.queryByRole("alert")).toBeNull();
  });

  test("a code that is not 6 digits is caught before asking the server", async () => {
    const server = createFakeServer({ reverified: true });
    await renderApp("/profile", "en", server);
    const form = await openForm("Change e-mail");
    fireEvent.change(within(form).getByLabelText("New e-mail address"), { target: { value: "new@example.org" } });
    fireEvent.click(within(form).getByRole("button", { name: "Send code" }));
    const code = await screen.findByLabelText("Code sent to the new address");
    fireEvent.change(code, { target: { value: "12a4" } });
    expect((code as HTMLInputElement).value).toBe("124");
    fireEvent.click(screen.getByRole("button", { name: "Confirm the change" }));
    await waitFor(() => expect(fieldError(code)).toBe("The code must have 6 digits"));
    expect(count(server, "POST /users/email/verify")).toBe(0);
  });

  test("with the hosted provider the address is not changed here", async () => {
    const me = fakeMe();
    me.provider = "clerk";
    await renderApp("/profile", "en", createFakeServer({ me }));
    expect(await screen.findByTestId("account-email")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Change e-mail" })).toBeNull();
  });
});
