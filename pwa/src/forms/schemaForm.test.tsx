// The form pattern: a shared-schema zod schema through useSchemaForm, its errors shown by the kit's
// Field as message keys translated by i18next (and re-translated when the language changes), and the
// server's refusals placed in one place: 400 fields on their fields, 409 on the conflict field, 429 in
// the form's alert with the wait from Retry-After.
import { signUpRequestSchema } from "@patrimonio/shared-schema";
import { act, render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { createApiClient } from "../api/client";
import { createI18n, type Language } from "../i18n/i18n";
import { CredentialsForm, errorOf, submitForm as submit } from "../test/formControls";
import { translateKey, trimFields, useSchemaForm } from "./schemaForm";

/** A fetch that answers every request with this status, body and headers (the server's error shapes). */
function answering(status: number, body: unknown, headers: Record<string, string> = {}) {
  return createApiClient({
    language: () => "es",
    fetch: async () => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } }),
  });
}

function SignUpForm({ send }: { send: (values: { email: string; password: string }) => Promise<unknown> }) {
  const form = useSchemaForm(signUpRequestSchema, {
    defaultValues: { email: "", password: "" },
    prepare: trimFields("email"),
    conflictField: "email",
  });
  return <CredentialsForm form={form} send={send} />;
}

function renderForm(language: Language, send: (values: { email: string; password: string }) => Promise<unknown> = async () => undefined) {
  const i18n = createI18n({ lng: language });
  render(
    <I18nextProvider i18n={i18n}>
      <SignUpForm send={send} />
    </I18nextProvider>,
  );
  return i18n;
}



describe("useSchemaForm", () => {
  test.each([
    ["es", "Introduce tu correo electrónico", "Debe tener al menos 10 caracteres", "Correo electrónico no válido"],
    ["en", "Enter your e-mail address", "Must have at least 10 characters", "Invalid e-mail address"],
  ] as const)("shows the shared schema's messages translated (%s)", async (language, emailRequired, passwordShort, emailInvalid) => {
    const sent: unknown[] = [];
    renderForm(language, async (values) => sent.push(values));
    await submit({ password: "corta" });
    expect(errorOf("email")).toBe(emailRequired);
    expect(errorOf("password")).toBe(passwordShort);
    expect(screen.getByLabelText("email").getAttribute("aria-invalid")).toBe("true");
    await submit({ email: "ana@example", password: "una contraseña larga" });
    expect(errorOf("email")).toBe(emailInvalid);
    expect(errorOf("password")).toBeNull();
    expect(sent).toEqual([]);
  });

  test("an error follows the language: it is a key, translated where it is shown", async () => {
    const i18n = renderForm("es");
    await submit({});
    expect(errorOf("email")).toBe("Introduce tu correo electrónico");
    await act(async () => {
      await i18n.changeLanguage("en");
    });
    expect(errorOf("email")).toBe("Enter your e-mail address");
  });

  test("the submit handler gets the cleaned, validated values", async () => {
    const sent: unknown[] = [];
    renderForm("es", async (values) => sent.push(values));
    await submit({ email: "  Ana@Example.com ", password: "una contraseña larga" });
    expect(sent).toEqual([{ email: "Ana@Example.com", password: "una contraseña larga" }]);
  });

  test("a server 400 naming a field puts its message on that field, in the active language", async () => {
    // The answer of server/httpapi/validate.go for a body the shared schema refused.
    const api = answering(400, {
      error: {
        code: "invalid",
        message: "Datos no válidos: password: Debe tener al menos 10 caracteres.",
        fields: [{ path: "password", key: "validation.string.min", params: { min: 10 }, message: "Debe tener al menos 10 caracteres" }],
      },
    });
    const i18n = renderForm("es", (values) => api.post("/auth/signup", values));
    await submit({ email: "ana@example.com", password: "una contraseña larga" });
    expect(errorOf("password")).toBe("Debe tener al menos 10 caracteres");
    // Everything the server said is on a field: no form alert repeats it.
    expect(screen.queryByRole("alert")).toBeNull();
    await act(async () => {
      await i18n.changeLanguage("en");
    });
    expect(errorOf("password")).toBe("Must have at least 10 characters");
  });

  test("a server field without a key keeps the server's text; a field the form lacks goes to the alert", async () => {
    const api = answering(400, {
      error: {
        code: "invalid",
        message: "Revisa los datos.",
        fields: [
          { path: "email", message: "Esta dirección no se puede usar." },
          { path: "captcha", message: "Falta el captcha." },
        ],
      },
    });
    renderForm("es", (values) => api.post("/auth/signup", values));
    await submit({ email: "ana@example.com", password: "una contraseña larga" });
    expect(errorOf("email")).toBe("Esta dirección no se puede usar.");
    expect(screen.getByRole("alert").textContent).toBe("Revisa los datos.");
  });

  test("a 409 lands on the conflict field", async () => {
    const api = answering(409, { error: { code: "conflict", message: "Ya existe una cuenta con este correo." } });
    renderForm("es", (values) => api.post("/auth/signup", values));
    await submit({ email: "ana@example.com", password: "una contraseña larga" });
    expect(errorOf("email")).toBe("Ya existe una cuenta con este correo.");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  test("a 429 is the form's alert, with the server's message or the wait from Retry-After", async () => {
    const api = answering(429, { error: { code: "too_many_requests", message: "" } }, { "Retry-After": "42" });
    renderForm("es", (values) => api.post("/auth/signin", values));
    await submit({ email: "ana@example.com", password: "una contraseña larga" });
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("Demasiados intentos. Vuelve a intentarlo dentro de 42 segundos."));
    expect(errorOf("email")).toBeNull();
  });
});

describe("numbers in a message", () => {
  test("are written the reader's way, and a count stays a plural count", () => {
    const es = createI18n({ lng: "es" });
    const en = createI18n({ lng: "en" });
    const remaining = { key: "validation.percent.remaining", params: { remaining: 12.5 } };
    expect(translateKey(es, remaining)).toBe("Faltan 12,5% para llegar al 100%");
    expect(translateKey(en, remaining)).toBe("12.5% left to reach 100%");
    const longText = { key: "validation.string.max", params: { max: 1000 } };
    expect(translateKey(es, longText)).toContain("1.000");
    expect(translateKey(en, longText)).toContain("1,000");
  });

  test("a number field's bound of four digits is a year, never grouped", () => {
    const es = createI18n({ lng: "es" });
    const en = createI18n({ lng: "en" });
    const year = { key: "validation.number.max", params: { max: 2100 } };
    expect(translateKey(es, year)).toContain(" 2100");
    expect(translateKey(en, year)).toContain(" 2100");
    expect(translateKey(es, { key: "validation.number.min", params: { min: -5000 } })).toContain("-5000");
    expect(translateKey(es, { key: "validation.number.max", params: { max: 1000000 } })).toContain("1.000.000");
  });
});
