// The shared asset components and hooks against a real device database (fake-indexeddb) and the
// app's i18n: amounts in the reader's format, labels from the enumeration cache or the bundled
// texts, the viewer's read-only notice, loading vs none, and a conflict's losing value.
import "fake-indexeddb/auto";
import { addValuation, ClientDb, ClientDbProvider, createAsset, refreshEnums, type ConflictView } from "@patrimonio/clientdb";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, renderHook, screen, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test } from "vitest";
import { ApiProvider } from "../../../api/ApiProvider";
import { createApiClient } from "../../../api/client";
import type { Workspace } from "../../../api/types";
import { AssetLabelsProvider } from "../../../assets/useAssetLabels";
import { useAssetInstructions, useAssetLiabilities, useAssets, useAssetWorkspace, useValuations } from "../../../assets/hooks";
import { createI18n, type Language } from "../../../i18n/i18n";
import { createFakeServer, fakeMe } from "../../../test/fakeServer";
import { ConflictNote } from "./ConflictNote";
import { CategoryLabel, ClassLabel } from "./Labels";
import { MoneyText, MoneyTotalsText, PercentText } from "./MoneyText";
import { ReadOnlyNotice } from "./ReadOnlyNotice";
import { ValuationAge } from "./ValuationAge";

const TEAM: Workspace = { id: "0a1b2c3d-0000-4000-8000-000000000009", name: "Familia", kind: "team", role: "viewer" };
const OWN: Workspace = { id: "0a1b2c3d-0000-4000-8000-000000000001", name: "Ana", kind: "personal", role: "owner" };

let n = 0;

function providers(options: { language?: Language; db?: ClientDb | null; workspaces?: Workspace[] } = {}) {
  const language = options.language ?? "es";
  const i18n = createI18n({ lng: language });
  const server = createFakeServer({ me: fakeMe({ workspaces: options.workspaces ?? [OWN] }) });
  const api = createApiClient({ fetch: server.fetch, language: () => language });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return function Wrapper({ children }: { children?: ReactNode }) {
    return (
      <I18nextProvider i18n={i18n}>
        <ApiProvider client={api}>
          <QueryClientProvider client={queryClient}>
            <ClientDbProvider db={options.db ?? null}>{children}</ClientDbProvider>
          </QueryClientProvider>
        </ApiProvider>
      </I18nextProvider>
    );
  };
}

describe("amounts", () => {
  test("money, totals per currency and percentages in the reader's format, exact", () => {
    const Es = providers({ language: "es" });
    const { container, rerender } = render(
      <Es>
        <MoneyText amount="1234567.891" currency="EUR" />|<MoneyText amount={undefined} currency="EUR" />|
        <MoneyTotalsText totals={[{ currency: "EUR", amount: "10.5" }, { currency: "USD", amount: "3" }]} />|<MoneyTotalsText totals={[]} />|
        <PercentText value="12.5" />
      </Es>,
    );
    expect(container.textContent?.replace(/\u00a0|\u202f/g, " ")).toBe("1.234.567,89 €|—|10,50 €3,00 US$|—|12,5 %");
    const En = providers({ language: "en" });
    rerender(
      <En>
        <MoneyText amount="1234567.891" currency="EUR" />|<PercentText value="12.5" />
      </En>,
    );
    expect(container.textContent).toBe("€1,234,567.89|12.5%");
  });

  test("the age of a valuation", () => {
    const Es = providers({ language: "es" });
    render(
      <Es>
        <ValuationAge date="2024-12-10" today="2025-03-10" />
      </Es>,
    );
    expect(screen.getByText("hace 3 meses")).toBeTruthy();
  });
});

describe("labels", () => {
  test("bundled labels when the device never fetched the enumerations; the cache's once it has", async () => {
    const Es = providers({ language: "es" });
    const first = render(
      <Es>
        <ClassLabel code="real_estate" />/<CategoryLabel code="residential" />/<CategoryLabel code="custom" custom="Trastero" />/
        <CategoryLabel code="custom" />/<CategoryLabel code="admin_code_not_cached" />
      </Es>,
    );
    expect(first.container.textContent).toBe("Inmuebles/Residencial/Trastero/Categoría personalizada/admin_code_not_cached");
    first.unmount();

    const db = await ClientDb.open({ name: `common-${++n}` });
    const values = [
      { id: 1, type: "asset_class", code: "real_estate", parentId: null, level: "asset_class", labels: { es: "Bienes raíces", en: "Property" }, order: 1, active: true },
      { id: 101, type: "asset_category", code: "residential", parentId: 1, level: "asset_category", labels: { es: "Vivienda", en: "Housing" }, order: 1, active: true },
    ];
    await refreshEnums(db, { fetch: async () => new Response(JSON.stringify(values), { status: 200, headers: { ETag: '"1"' } }) });
    const En = providers({ language: "en", db });
    const second = render(
      <En>
        <ClassLabel code="real_estate" />/<CategoryLabel code="residential" />/<CategoryLabel code="commercial" />
      </En>,
    );
    await waitFor(() => expect(second.container.textContent).toBe("Property/Housing/Commercial"));
    second.unmount();
    // Inside a provider (lists), the labels come from its shared queries.
    const third = render(
      <En>
        <AssetLabelsProvider>
          <ClassLabel code="real_estate" />/<CategoryLabel code="residential" />
        </AssetLabelsProvider>
      </En>,
    );
    await waitFor(() => expect(third.container.textContent).toBe("Property/Housing"));
    db.close();
  });
});

describe("workspace, role and loading", () => {
  test("a viewer is told why everything is read-only; an owner sees no notice", async () => {
    const Viewer = providers({ workspaces: [TEAM] });
    const viewer = render(
      <Viewer>
        <ReadOnlyNotice />
      </Viewer>,
    );
    expect(await screen.findByTestId("read-only-notice")).toBeTruthy();
    expect(viewer.container.textContent).toContain("Solo puedes consultar");
    viewer.unmount();

    const Owner = providers({ workspaces: [OWN] });
    const role = renderHook(() => useAssetWorkspace(), { wrapper: Owner });
    await waitFor(() => expect(role.result.current).toMatchObject({ workspaceId: OWN.id, role: "owner", canEdit: true, readOnlyReasonKey: null }));
    const owner = render(
      <Owner>
        <ReadOnlyNotice />
      </Owner>,
    );
    expect(owner.container.textContent).toBe("");
  });

  test("useAssets: undefined while the database is not open, [] when there are none, then the rows", async () => {
    const closed = renderHook(() => useAssets(), { wrapper: providers({ workspaces: [OWN] }) });
    await waitFor(() => expect(closed.result.current).toBeUndefined());

    const db = await ClientDb.open({ name: `common-${++n}` });
    const hook = renderHook(() => useAssets(), { wrapper: providers({ workspaces: [OWN], db }) });
    await waitFor(() => expect(hook.result.current).toEqual([]));
    const made = await createAsset(db, OWN.id, { name: "Piso", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100" });
    expect(made.ok).toBe(true);
    await waitFor(() => expect(hook.result.current?.map((a) => a.fields.name)).toEqual(["Piso"]));
    db.close();
  });
});

describe("an asset's history, debts and instructions", () => {
  test("valuations newest first, the debts and instructions tied to the asset only", async () => {
    const db = await ClientDb.open({ name: `common-${++n}` });
    const base = { assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100" } as const;
    const made = await createAsset(db, OWN.id, { ...base, name: "Piso", currentValue: "100", valuationDate: "2025-01-01" }, {
      debts: [{ name: "Hipoteca", kind: "mortgage", amountOutstanding: "50" }],
    });
    const other = await createAsset(db, OWN.id, { ...base, name: "Otro" }, { debts: [{ name: "Otra deuda", kind: "loan", amountOutstanding: "1" }] });
    if (!made.ok || !other.ok) throw new Error("refused");
    await addValuation(db, made.id, { date: "2025-06-01", value: "130" });
    await addValuation(db, made.id, { date: "2024-06-01", value: "90" });
    await db.create("legacyInstructions", OWN.id, { text: "Para Lucía", assetId: made.id });
    await db.create("legacyInstructions", OWN.id, { text: "General" });
    const wrapper = providers({ workspaces: [OWN], db });
    const hook = renderHook(
      () => ({ v: useValuations(made.id), l: useAssetLiabilities(made.id), i: useAssetInstructions(made.id) }),
      { wrapper },
    );
    await waitFor(() => expect(hook.result.current.v?.map((v) => [v.fields.date, v.fields.value])).toEqual([
      ["2025-06-01", "130"],
      ["2025-01-01", "100"],
      ["2024-06-01", "90"],
    ]));
    await waitFor(() => expect(hook.result.current.l?.map((l) => l.fields.name)).toEqual(["Hipoteca"]));
    await waitFor(() => expect(hook.result.current.i?.map((i) => i.fields.text)).toEqual(["Para Lucía"]));
    db.close();
  });
});

describe("conflicts", () => {
  test("shows the losing value, from which device and when; editors get restore and keep", async () => {
    const db = await ClientDb.open({ name: `common-${++n}` });
    const conflict: ConflictView = {
      id: "assets/x/name/s",
      collection: "assets",
      recordId: "x",
      workspaceId: OWN.id,
      field: "name",
      value: "Piso antiguo",
      current: "Piso nuevo",
      author: "another-client",
      stamp: "2025-03-01T09:00:00.000Z-0000-aaaaaaaaaaaaaaaa",
      at: Date.UTC(2025, 2, 1, 9, 0),
    };
    const Owner = providers({ workspaces: [OWN], db });
    render(
      <Owner>
        <ConflictNote recordId="x" field="name" conflicts={[conflict]} />
        <ConflictNote recordId="x" field="currency" conflicts={[conflict]} />
      </Owner>,
    );
    const notes = await screen.findAllByTestId("conflict-note");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.textContent).toContain("Valor descartado: Piso antiguo");
    expect(notes[0]!.textContent).toContain("otro dispositivo");
    expect(notes[0]!.textContent).toContain("2025");
    await waitFor(() => expect(screen.getByRole("button", { name: "Restaurar" })).toBeTruthy());
    expect(screen.getByRole("button", { name: "Mantener el actual" })).toBeTruthy();
    db.close();
  });
});
