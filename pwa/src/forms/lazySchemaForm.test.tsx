// The form pattern with a lazy schema (sign-in paints before zod loads): the schema is imported
// after the first paint, never during it, and once; the form validates with it exactly as
// useSchemaForm does; a schema that cannot load leaves the form's alert and sends nothing, and the
// next submit tries again.
import { signUpRequestSchema } from "@patrimonio/shared-schema";
import { render, screen, waitFor } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { createI18n } from "../i18n/i18n";
import { trimFields } from "./formCore";
import { CredentialsForm, errorOf, submitForm as submit } from "../test/formControls";
import { lazySchema, useLazySchemaForm, type LazySchema } from "./lazySchemaForm";

type Values = { email: string; password: string };

function LazyForm({ schema, send }: { schema: LazySchema<typeof signUpRequestSchema>; send: (values: Values) => Promise<unknown> }) {
  const form = useLazySchemaForm(schema, { defaultValues: { email: "", password: "" }, prepare: trimFields("email") });
  return <CredentialsForm form={form} send={send} />;
}

function renderForm(schema: LazySchema<typeof signUpRequestSchema>, send: (values: Values) => Promise<unknown> = async () => undefined) {
  render(
    <I18nextProvider i18n={createI18n({ lng: "es" })}>
      <LazyForm schema={schema} send={send} />
    </I18nextProvider>,
  );
}



describe("useLazySchemaForm", () => {
  test("imports the schema after the first paint, before any submit, and once", async () => {
    let loads = 0;
    renderForm(
      lazySchema(async () => {
        loads++;
        return signUpRequestSchema;
      }),
    );
    expect(loads).toBe(0);
    await waitFor(() => expect(loads).toBe(1));
    await submit({});
    await waitFor(() => expect(errorOf("email")).toBe("Introduce tu correo electrónico"));
    expect(loads).toBe(1);
  });

  test("validates as useSchemaForm does: the spec's messages on the fields, then the cleaned values", async () => {
    const sent: unknown[] = [];
    renderForm(
      lazySchema(async () => signUpRequestSchema),
      async (values) => sent.push(values),
    );
    await submit({ password: "corta" });
    await waitFor(() => expect(errorOf("password")).toBe("Debe tener al menos 10 caracteres"));
    expect(errorOf("email")).toBe("Introduce tu correo electrónico");
    await submit({ email: "  Ana@Example.com ", password: "una contraseña larga" });
    await waitFor(() => expect(sent).toEqual([{ email: "Ana@Example.com", password: "una contraseña larga" }]));
    expect(errorOf("email")).toBeNull();
  });

  test("a schema that cannot load leaves the form's alert and sends nothing; the next submit loads it", async () => {
    let reachable = false;
    let tries = 0;
    const sent: unknown[] = [];
    renderForm(
      lazySchema(async () => {
        tries++;
        if (!reachable) throw new TypeError("Failed to fetch dynamically imported module");
        return signUpRequestSchema;
      }),
      async (values) => sent.push(values),
    );
    await waitFor(() => expect(tries).toBe(1)); // the import after the first paint failed
    await submit({ email: "ana@example.com", password: "una contraseña larga" });
    await waitFor(() => expect(screen.getByRole("alert")).toBeTruthy());
    expect(tries).toBe(2);
    expect(sent).toEqual([]);
    reachable = true;
    await submit({});
    await waitFor(() => expect(sent).toEqual([{ email: "ana@example.com", password: "una contraseña larga" }]));
    expect(tries).toBe(3);
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
