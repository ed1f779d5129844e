// The form pattern's tests: an e-mail and password form over a form made by either hook, filling
// and submitting it by its fields' labels, and reading the error the kit's Field links to a control
// (aria-describedby).
import { act, fireEvent, screen } from "@testing-library/react";
import type { SchemaForm } from "../forms/formCore";
import { FormError } from "../forms/FormError";
import { Field } from "../ui/Field";
import { TextInput } from "../ui/TextInput";

export interface Credentials {
  email: string;
  password: string;
}

/** The fields "email" and "password", the form's alert and a submit button, for the form given. */
export function CredentialsForm({ form, send }: { form: SchemaForm<Credentials, Credentials>; send: (values: Credentials) => Promise<unknown> }) {
  return (
    <form noValidate onSubmit={form.submit(send)} data-testid="form">
      <Field label="email" error={form.errorText("email")}>
        <TextInput {...form.register("email")} />
      </Field>
      <Field label="password" error={form.errorText("password")}>
        <TextInput type="password" {...form.register("password")} />
      </Field>
      <FormError form={form} />
      <button type="submit">go</button>
    </form>
  );
}

/** Types the given values into the fields labelled with their names, then submits the form with
 * data-testid="form". */
export async function submitForm(values: Record<string, string | undefined>): Promise<void> {
  for (const [label, value] of Object.entries(values)) {
    if (value !== undefined) fireEvent.change(screen.getByLabelText(label), { target: { value } });
  }
  await act(async () => {
    fireEvent.submit(screen.getByTestId("form"));
  });
}

/** The error text the kit's Field links to the control labelled `label`. */
export function errorOf(label: string): string | null {
  const control = screen.getByLabelText(label);
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.dataset.part === "error")?.textContent ?? null;
}
