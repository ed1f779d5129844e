import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { ApiProvider } from "../api/ApiProvider";
import { createApiClient } from "../api/client";
import type { PersonalIdentityInput } from "../api/types";
import { createI18n, type Language } from "../i18n/i18n";
import { createFakeServer } from "../test/fakeServer";
import { PersonalInfoForm } from "./PersonalInfoForm";
import { EMPTY_PERSONAL_IDENTITY } from "./personalIdentity";

function renderForm(language: Language, onSubmit: (values: PersonalIdentityInput) => Promise<unknown> = async () => undefined) {
  const i18n = createI18n({ lng: language });
  const api = createApiClient({ fetch: createFakeServer().fetch, language: () => language });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <ApiProvider client={api}>
        <QueryClientProvider client={new QueryClient()}>
          <PersonalInfoForm defaultValues={EMPTY_PERSONAL_IDENTITY} submitLabel="Continuar" onSubmit={onSubmit} />
        </QueryClientProvider>
      </ApiProvider>
    </I18nextProvider>,
  );
  return { ...view, i18n };
}

const SPANISH = {
  first: "El primer nombre es requerido",
  last: "El apellido es requerido",
  birthday: "La fecha de nacimiento es requerida",
  gender: "El sexo es requerido",
  country: "El país es requerido",
  state: "La provincia es requerida",
};

const ENGLISH = {
  first: "First name is required",
  last: "Last name is required",
  birthday: "Date of birth is required",
  gender: "Gender is required",
  country: "Country is required",
  state: "State or province is required",
};

async function submitEmpty() {
  await act(async () => {
    fireEvent.submit(screen.getByTestId("personal-info-form"));
  });
}

/** The error text linked to a control through aria-describedby. */
function describedError(control: HTMLElement): string | null {
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.classList.contains("field-error"))?.textContent ?? null;
}

describe("the personal identity form", () => {
  test.each([
    ["es", SPANISH, ["Nombre", "Apellidos", "Fecha de nacimiento", "Sexo", "País de residencia", "Provincia o estado"]],
    ["en", ENGLISH, ["First name", "Last name", "Date of birth", "Gender", "Country of residence", "State or province"]],
  ] as const)("an empty submit in %s shows the spec's message on each field, linked to it", async (language, messages, labels) => {
    let submitted = 0;
    renderForm(language, async () => {
      submitted++;
    });
    await submitEmpty();
    const controls = labels.map((label) => screen.getByLabelText(label));
    expect(controls.map(describedError)).toEqual([
      messages.first,
      messages.last,
      messages.birthday,
      messages.gender,
      messages.country,
      messages.state,
    ]);
    for (const control of controls) expect(control.getAttribute("aria-invalid")).toBe("true");
    expect(submitted).toBe(0);
  });

  test("blank spaces count as empty", async () => {
    renderForm("es");
    fireEvent.change(screen.getByLabelText("Nombre"), { target: { value: "   " } });
    await submitEmpty();
    expect(describedError(screen.getByLabelText("Nombre"))).toBe(SPANISH.first);
  });

  test("the messages follow a language switch", async () => {
    const { i18n } = renderForm("es");
    await submitEmpty();
    expect(screen.getByText(SPANISH.gender)).toBeTruthy();
    await act(async () => {
      await i18n.changeLanguage("en");
    });
    expect(screen.getByText(ENGLISH.gender)).toBeTruthy();
    expect(screen.queryByText(SPANISH.gender)).toBeNull();
  });

  test("a filled form submits the trimmed values and clears the errors", async () => {
    const received: PersonalIdentityInput[] = [];
    renderForm("es", async (values) => {
      received.push(values);
    });
    await submitEmpty();
    fireEvent.change(screen.getByLabelText("Nombre"), { target: { value: " Ana " } });
    fireEvent.change(screen.getByLabelText("Apellidos"), { target: { value: "García López" } });
    fireEvent.change(screen.getByLabelText("Fecha de nacimiento"), { target: { value: "1980-05-17" } });
    fireEvent.change(screen.getByLabelText("Sexo"), { target: { value: "female" } });
    fireEvent.change(screen.getByLabelText("País de residencia"), { target: { value: "ES" } });
    fireEvent.change(screen.getByLabelText("Provincia o estado"), { target: { value: "Madrid" } });
    await submitEmpty();
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]).toEqual({
      first_name: "Ana",
      last_name: "García López",
      birthday: "1980-05-17",
      gender: "female",
      country: "ES",
      state: "Madrid",
    });
    expect(document.querySelectorAll(".field-error")).toHaveLength(0);
    expect(screen.getByLabelText("Nombre").getAttribute("aria-invalid")).toBeNull();
  });

  test("countries are named in the active language, and genders use the shared labels", () => {
    renderForm("es");
    const country = screen.getByLabelText("País de residencia") as HTMLSelectElement;
    expect(country.querySelector('option[value="ES"]')?.textContent).toBe("España");
    expect(country.querySelector('option[value="DE"]')?.textContent).toBe("Alemania");
    const gender = screen.getByLabelText("Sexo") as HTMLSelectElement;
    expect([...gender.options].map((o) => o.textContent)).toEqual(["Elige…", "Mujer", "Hombre", "Otro"]);
  });

  test("a server refusal is shown as an alert", async () => {
    renderForm("es", async () => {
      throw new Error("boom");
    });
    fireEvent.change(screen.getByLabelText("Nombre"), { target: { value: "Ana" } });
    fireEvent.change(screen.getByLabelText("Apellidos"), { target: { value: "García" } });
    fireEvent.change(screen.getByLabelText("Fecha de nacimiento"), { target: { value: "1980-05-17" } });
    fireEvent.change(screen.getByLabelText("Sexo"), { target: { value: "other" } });
    fireEvent.change(screen.getByLabelText("País de residencia"), { target: { value: "AR" } });
    fireEvent.change(screen.getByLabelText("Provincia o estado"), { target: { value: "Córdoba" } });
    await submitEmpty();
    expect((await screen.findByRole("alert")).textContent).toBe("Algo salió mal. Inténtalo de nuevo.");
  });
});
