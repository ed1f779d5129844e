import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { ApiProvider } from "../api/ApiProvider";
import { createApiClient } from "../api/client";
import type { PersonalIdentityInput } from "../api/types";
import { createI18n, type Language } from "../i18n/i18n";
import { createFakeServer } from "../test/fakeServer";
import { renderInRouter } from "../test/renderInRouter";
import { PersonalInfoForm } from "./PersonalInfoForm";
import { EMPTY_PERSONAL_IDENTITY } from "./personalIdentity";

// jsdom lays nothing out and has no ResizeObserver; Radix's radio group measures its items with one.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

async function renderForm(
  language: Language,
  onSubmit: (values: PersonalIdentityInput) => Promise<unknown> = async () => undefined,
  defaultValues: PersonalIdentityInput = EMPTY_PERSONAL_IDENTITY,
) {
  const i18n = createI18n({ lng: language });
  const api = createApiClient({ fetch: createFakeServer().fetch, language: () => language });
  // In a router: the form's LeaveGuard holds navigations while it has changes.
  const view = await renderInRouter(
    <I18nextProvider i18n={i18n}>
      <ApiProvider client={api}>
        <QueryClientProvider client={new QueryClient()}>
          <PersonalInfoForm defaultValues={defaultValues} submitLabel="Continuar" onSubmit={onSubmit} />
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

/** The error text linked to a control through aria-describedby (the kit's Field marks it data-part="error"). */
function describedError(control: HTMLElement): string | null {
  const ids = (control.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.dataset.part === "error")?.textContent ?? null;
}

/** The control a label names (the required mark "*" follows the label's text). */
function control(label: string): HTMLElement {
  return screen.getByLabelText(new RegExp(`^${label}\\*?$`));
}

function type(label: string, value: string) {
  fireEvent.change(control(label), { target: { value } });
}

/** Picks a country by typing its name into the combobox and pressing Enter on the first match. */
function pickCountry(name: string) {
  const input = screen.getByRole("combobox", { name: /^País de residencia/ });
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: name } });
  fireEvent.keyDown(input, { key: "Enter" });
}

function fillDate(label: string, value: string) {
  const input = control(label);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
}

describe("the personal identity form", () => {
  test.each([
    ["es", SPANISH, ["Nombre", "Apellidos", "Fecha de nacimiento", "Sexo", "País de residencia", "Provincia o estado"]],
    ["en", ENGLISH, ["First name", "Last name", "Date of birth", "Gender", "Country of residence", "State or province"]],
  ] as const)("an empty submit in %s shows the spec's message on each field, linked to it", async (language, messages, labels) => {
    let submitted = 0;
    await renderForm(language, async () => {
      submitted++;
    });
    await submitEmpty();
    const controls = labels.map((label) => control(label));
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
    await renderForm("es");
    type("Nombre", "   ");
    await submitEmpty();
    expect(describedError(control("Nombre"))).toBe(SPANISH.first);
  });

  test("the messages follow a language switch", async () => {
    const { i18n } = await renderForm("es");
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
    await renderForm("es", async (values) => {
      received.push(values);
    });
    await submitEmpty();
    type("Nombre", " Ana ");
    type("Apellidos", "García López");
    fillDate("Fecha de nacimiento", "17/05/1980");
    fireEvent.click(screen.getByRole("radio", { name: "Mujer" }));
    pickCountry("España");
    type("Provincia o estado", "Madrid");
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
    expect(document.querySelectorAll('[data-part="error"]')).toHaveLength(0);
    expect(control("Nombre").getAttribute("aria-invalid")).toBeNull();
  });

  test("countries are named and found in the active language, and genders use the shared labels", async () => {
    await renderForm("es");
    const input = screen.getByRole("combobox", { name: /^País de residencia/ });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: "alema" } });
    expect(screen.getAllByRole("option").map((o) => o.textContent)).toContain("Alemania");
    expect(screen.getAllByRole("radio").map((r) => r.getAttribute("aria-label") ?? r.closest("div")?.textContent)).toEqual(["Mujer", "Hombre", "Otro"]);
  });

  test("a server refusal is shown as an alert", async () => {
    await renderForm("es", async () => {
      throw new Error("boom");
    });
    type("Nombre", "Ana");
    type("Apellidos", "García");
    fillDate("Fecha de nacimiento", "17/05/1980");
    fireEvent.click(screen.getByRole("radio", { name: "Otro" }));
    pickCountry("Argentina");
    type("Provincia o estado", "Córdoba");
    await submitEmpty();
    expect((await screen.findByRole("alert")).textContent).toBe("Algo salió mal. Inténtalo de nuevo.");
  });
});

const SAVED: PersonalIdentityInput = { first_name: "Ana", last_name: "García", birthday: "1980-05-17", gender: "female", country: "ES", state: "Madrid" };

/** Leaves the form's page the way a link or the sidebar would. */
async function leave(router: Awaited<ReturnType<typeof renderForm>>["router"]) {
  await act(async () => {
    void router.navigate({ to: "/workspaces" });
  });
}

describe("leaving the personal identity form", () => {
  test("untouched, it leaves at once", async () => {
    const { router } = await renderForm("es", undefined, SAVED);
    await leave(router);
    await screen.findByText("Otra página");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  test("with a change it asks: «Seguir editando» keeps what was typed, «Descartar» leaves", async () => {
    const { router } = await renderForm("es", undefined, SAVED);
    type("Nombre", "Ana María");
    await leave(router);
    let ask = await screen.findByRole("alertdialog", { name: "¿Descartar los cambios?" });
    await act(async () => fireEvent.click(within(ask).getByRole("button", { name: "Seguir editando" })));
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(router.state.location.pathname).toBe("/");
    expect((control("Nombre") as HTMLInputElement).value).toBe("Ana María");

    await leave(router);
    ask = await screen.findByRole("alertdialog", { name: "¿Descartar los cambios?" });
    await act(async () => fireEvent.click(within(ask).getByRole("button", { name: "Descartar" })));
    await screen.findByText("Otra página");
  });

  test("once saved, the change is no longer one: leaving does not ask", async () => {
    const received: PersonalIdentityInput[] = [];
    const { router } = await renderForm("es", async (values) => void received.push(values), SAVED);
    type("Nombre", " Ana María ");
    await submitEmpty();
    await waitFor(() => expect(received).toHaveLength(1));
    expect((control("Nombre") as HTMLInputElement).value).toBe("Ana María");
    await leave(router);
    await screen.findByText("Otra página");
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  test("a refused save keeps the change and still asks", async () => {
    const { router } = await renderForm(
      "es",
      async () => {
        throw new Error("offline");
      },
      SAVED,
    );
    type("Nombre", "Ana María");
    await submitEmpty();
    await screen.findByRole("alert");
    await leave(router);
    expect(await screen.findByRole("alertdialog", { name: "¿Descartar los cambios?" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/");
  });
});
