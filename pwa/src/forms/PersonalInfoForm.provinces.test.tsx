// The province field against a real device database (fake-indexeddb) holding the enumerations: typed
// until the device has the country's list, then picked and stored as the subdivision's code, shown in
// the reader's language; a name typed before the list arrived, or stored before codes in either
// language, becomes the code of the province it names.
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import type { PersonalIdentityInput } from "../api/types";
import { createI18n, type Language } from "../i18n/i18n";
import { loadEnums, SPAIN_ENUMS } from "../test/enums";
import { renderInRouter } from "../test/renderInRouter";
import { PersonalInfoForm } from "./PersonalInfoForm";

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

let n = 0;

async function setup(db: ClientDb, defaults: Partial<PersonalIdentityInput>, language: Language = "es") {
  const received: PersonalIdentityInput[] = [];
  const i18n = createI18n({ lng: language });
  const { router } = await renderInRouter(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={new QueryClient()}>
        <ClientDbProvider db={db}>
          <PersonalInfoForm
            defaultValues={{ first_name: "Ana", last_name: "García", birthday: "1980-05-17", gender: "female", country: "ES", state: "", ...defaults }}
            submitLabel="Continuar"
            onSubmit={async (values) => void received.push(values)}
          />
        </ClientDbProvider>
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return Object.assign(received, { router });
}

async function submit(received: PersonalIdentityInput[]) {
  await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continuar" })));
  await waitFor(() => expect(received).toHaveLength(1));
  return received[0]!;
}

describe("the province field", () => {
  test("text typed before the province list arrived becomes the code of the province it names", async () => {
    const db = await ClientDb.open({ name: `provinces-${++n}` });
    const received = await setup(db, {});
    const typed = await screen.findByRole("textbox", { name: /^Provincia o estado/ });
    fireEvent.change(typed, { target: { value: "cordoba " } });
    await loadEnums(db, SPAIN_ENUMS);
    const picker = await screen.findByRole("combobox", { name: /^Provincia o estado/ });
    await waitFor(() => expect((picker as HTMLInputElement).value).toBe("Córdoba"));
    expect((await submit(received)).state).toBe("ES-CO");
    db.close();
  });

  test("a province stored by name in the other language is shown in the reader's and saved as its code", async () => {
    const db = await ClientDb.open({ name: `provinces-${++n}` });
    await loadEnums(db, SPAIN_ENUMS);
    const received = await setup(db, { state: "Illes Balears" }, "en");
    const picker = await screen.findByRole("combobox", { name: /^State or province/ });
    await waitFor(() => expect((picker as HTMLInputElement).value).toBe("Balearic Islands"));
    // The stored name matched to its code is not a change the user made: leaving does not ask.
    await act(async () => {
      void received.router.navigate({ to: "/workspaces" });
    });
    await screen.findByText("Otra página");
    expect(screen.queryByRole("alertdialog")).toBeNull();
    await act(async () => received.router.history.back());
    await screen.findByRole("combobox", { name: /^State or province/ });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continuar" })));
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]!.state).toBe("ES-PM");
    db.close();
  });

  test("a country without known subdivisions keeps free text", async () => {
    const db = await ClientDb.open({ name: `provinces-${++n}` });
    await loadEnums(db, SPAIN_ENUMS);
    const received = await setup(db, { country: "FR", state: "Bretagne" });
    const typed = await screen.findByRole("textbox", { name: /^Provincia o estado/ });
    expect((typed as HTMLInputElement).value).toBe("Bretagne");
    expect((await submit(received)).state).toBe("Bretagne");
    db.close();
  });
});
