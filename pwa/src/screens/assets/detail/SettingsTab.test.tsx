// The settings tab against a real device database (fake-indexeddb) and the app's i18n: the legal
// structure select shows the stored structure once the structures load, and "saved" appears only
// when a card wrote something.
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider, createAsset, saveLegalStructure, useRecord } from "@patrimonio/clientdb";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { toast } from "sonner";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { ApiProvider } from "../../../api/ApiProvider";
import { createApiClient } from "../../../api/client";
import { createI18n, type Language } from "../../../i18n/i18n";
import { createFakeServer, fakeMe } from "../../../test/fakeServer";
import { ThemeProvider } from "../../../theme/ThemeProvider";
import { AppToaster } from "../../../toast/toast";
import { AssetDetailContext } from "./context";
import { SettingsTab } from "./SettingsTab";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
let n = 0;

beforeAll(() => import("../../../toast/sonnerToaster"));
afterEach(() => {
  act(() => {
    toast.dismiss();
  });
});

function Detail({ db, id, children }: { db: ClientDb; id: string; children: ReactNode }) {
  const asset = useRecord("assets", id);
  if (!asset) return null;
  return <AssetDetailContext.Provider value={{ db, asset, role: "owner", canEdit: true, conflicts: [] }}>{children}</AssetDetailContext.Provider>;
}

export function renderDetail(db: ClientDb, id: string, ui: ReactNode, language: Language = "es") {
  const i18n = createI18n({ lng: language });
  const server = createFakeServer({ me: fakeMe() });
  const api = createApiClient({ fetch: server.fetch, language: () => language });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <ThemeProvider matchMedia={() => undefined}>
      <I18nextProvider i18n={i18n}>
        <ApiProvider client={api}>
          <QueryClientProvider client={queryClient}>
            <ClientDbProvider db={db}>
              <Detail db={db} id={id}>
                {ui}
              </Detail>
              <AppToaster />
            </ClientDbProvider>
          </QueryClientProvider>
        </ApiProvider>
      </I18nextProvider>
    </ThemeProvider>,
  );
}

describe("settings › legal structure", () => {
  test("shows the structure that holds the asset (the structures load after the first render); re-saving it writes nothing and says nothing", async () => {
    const db = await ClientDb.open({ name: `settings-${++n}` });
    const a = await saveLegalStructure(db, WS, { name: "Aguila SL", structureType: "holding_company", country: "ES" });
    const b = await saveLegalStructure(db, WS, { name: "Inversiones Levante SL", structureType: "holding_company", country: "ES" });
    if (!a.ok || !b.ok) throw new Error("refused");
    const made = await createAsset(db, WS, {
      name: "Piso",
      assetClass: "real_estate",
      category: "residential",
      currency: "EUR",
      participation: "100",
      legalStructureId: b.id,
    });
    if (!made.ok) throw new Error("refused");
    renderDetail(db, made.id, <SettingsTab />);
    const card = await screen.findByTestId("settings-structure");
    const select = within(card).getByRole<HTMLSelectElement>("combobox");
    await waitFor(() => expect(within(select).queryAllByRole("option")).toHaveLength(3));
    expect(select.value).toBe(b.id);
    expect(select.selectedOptions[0]?.textContent).toBe("Inversiones Levante SL");

    // Saving without a change writes nothing and says nothing; a real change then is written and
    // said once (a toast of the first press would still be showing: toasts last 4 s).
    const button = within(card).getByRole("button", { name: "Cambiar la estructura" });
    fireEvent.click(button);
    await waitFor(() => expect(button.getAttribute("aria-busy")).not.toBe("true"));
    fireEvent.change(select, { target: { value: "" } });
    fireEvent.click(button);
    await waitFor(async () => expect((await db.get("assets", made.id))?.fields.legalStructureId).toBeUndefined());
    await waitFor(() => expect(screen.getAllByText("Cambios guardados")).toHaveLength(1));
    expect((await db.get("assets", made.id))?.fields.name).toBe("Piso");
    db.close();
  });
});
