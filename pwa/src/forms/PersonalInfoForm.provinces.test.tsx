// The province is typed until the device has the country's list, then picked: text typed before the
// list arrived is kept, written the list's way when it names one of its provinces.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test, vi } from "vitest";
import type { PersonalIdentityInput } from "../api/types";
import { createI18n } from "../i18n/i18n";
import { PersonalInfoForm } from "./PersonalInfoForm";

globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// The device's enumerations: Spain is known at once, its provinces only once `provincesArrived`.
const lists = vi.hoisted(() => ({ provincesArrived: false }));
vi.mock("../api/enums", () => ({
  useEnumOptions: (type: string | undefined) => {
    if (type === "country") return [{ value: "ES", label: "España", id: 1, code: "ES" }];
    if (type === "state" && lists.provincesArrived) {
      return [
        { value: "M", label: "Madrid", id: 2, code: "ES-M" },
        { value: "CO", label: "Córdoba", id: 3, code: "ES-CO" },
      ];
    }
    return undefined;
  },
}));

describe("the province field", () => {
  test("text typed before the province list arrived becomes the list's province it names", async () => {
    const received: PersonalIdentityInput[] = [];
    const i18n = createI18n({ lng: "es" });
    const view = () => (
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={new QueryClient()}>
          <PersonalInfoForm
            defaultValues={{ first_name: "Ana", last_name: "García", birthday: "1980-05-17", gender: "female", country: "ES", state: "" }}
            submitLabel="Continuar"
            onSubmit={async (values) => void received.push(values)}
          />
        </QueryClientProvider>
      </I18nextProvider>
    );
    const { rerender } = render(view());
    const typed = screen.getByRole("textbox", { name: /^Provincia o estado/ });
    fireEvent.change(typed, { target: { value: "cordoba " } });
    lists.provincesArrived = true;
    rerender(view());
    const picker = await screen.findByRole("combobox", { name: /^Provincia o estado/ });
    await waitFor(() => expect((picker as HTMLInputElement).value).toBe("Córdoba"));
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Continuar" })));
    await waitFor(() => expect(received).toHaveLength(1));
    expect(received[0]?.state).toBe("Córdoba");
  });
});
