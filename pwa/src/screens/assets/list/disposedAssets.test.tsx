// The asset list with a sold asset, against a real device database and router: the held assets'
// count and total leave it out, and it waits in a collapsed section whose state is in the URL.
import { createAsset, updateAsset } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { assetListSearchSchema } from "../../../router/assetRoutes";
import { AREA_WORKSPACE, openTestDb, renderAreaScreen } from "../../../test/renderAreaScreen";
import { AssetListScreen } from "./AssetListScreen";

// jsdom has no layout: the main area is as tall as a window.
beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(800);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(1200);
});
afterEach(() => vi.restoreAllMocks());

describe("asset list › sold or disposed assets", () => {
  test("leave the count and the total, and show in a collapsed section opened through the URL", async () => {
    const db = await openTestDb();
    const base = { assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100" } as const;
    const held = await createAsset(db, AREA_WORKSPACE, { ...base, name: "Casa", currentValue: "100000", valuationDate: "2025-01-01" });
    const sold = await createAsset(db, AREA_WORKSPACE, { ...base, name: "Piso vendido", currentValue: "250000", valuationDate: "2024-12-01" });
    if (!held.ok || !sold.ok) throw new Error("refused");
    expect(await updateAsset(db, sold.id, { disposal: { kind: "sold", date: "2025-01-15", amount: "260000" } })).toEqual({ ok: true });
    const { router } = await renderAreaScreen({ db, url: "/assets/", path: "/assets/", component: AssetListScreen, validateSearch: (s) => assetListSearchSchema.parse(s) });

    const summary = await screen.findByTestId("asset-summary");
    await waitFor(() => expect(summary.textContent?.replace(/\s/g, " ")).toBe("1 activoValor de tu participación: 100.000,00 €"));
    expect(screen.getAllByTestId("asset-row").map((r) => within(r).getByTestId("asset-name").textContent)).toEqual(["Casa"]);
    const toggle = screen.getByRole("button", { name: "Mostrar 1 activo vendido o dado de baja" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");

    await act(async () => fireEvent.click(toggle));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ disposed: 1 }));
    const section = screen.getByTestId("disposed-section");
    const row = await within(section).findByTestId("asset-row");
    expect(within(row).getByTestId("asset-name").textContent).toBe("Piso vendido");
    expect(within(row).getByTestId("asset-disposed").textContent).toBe("Vendido el 15 ene 2025");
    expect(within(row).queryByTestId("asset-settings")).toBeNull();
    expect(within(row).getByRole("link", { name: "Ver Piso vendido" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Ocultar 1 activo vendido o dado de baja" }).getAttribute("aria-expanded")).toBe("true");
    db.close();
  });

  test("a search finds disposed assets too, in their section; a scope with only disposed assets says none is held", async () => {
    const db = await openTestDb();
    const base = { assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100" } as const;
    const held = await createAsset(db, AREA_WORKSPACE, { ...base, name: "Casa" });
    const sold = await createAsset(db, AREA_WORKSPACE, { ...base, name: "Piso vendido" });
    if (!held.ok || !sold.ok) throw new Error("refused");
    expect(await updateAsset(db, sold.id, { disposal: { kind: "other", date: "2025-01-15" } })).toEqual({ ok: true });
    const first = await renderAreaScreen({ db, url: "/assets/?q=piso&disposed=1", path: "/assets/", component: AssetListScreen, validateSearch: (s) => assetListSearchSchema.parse(s) });
    const summary = await screen.findByTestId("asset-summary");
    await waitFor(() => expect(summary.textContent).toBe("0 de 1 activos"));
    expect(screen.queryByTestId("asset-none-held")).toBeNull();
    const row = await within(screen.getByTestId("disposed-section")).findByTestId("asset-row");
    expect(within(row).getByTestId("asset-disposed").textContent).toBe("Dado de baja el 15 ene 2025");
    first.unmount();
    // Disposing of the last held one: the default view says nothing is held any more.
    expect(await updateAsset(db, held.id, { disposal: { kind: "gifted", date: "2025-01-20" } })).toEqual({ ok: true });
    await renderAreaScreen({ db, url: "/assets/", path: "/assets/", component: AssetListScreen, validateSearch: (s) => assetListSearchSchema.parse(s) });
    expect(await screen.findByTestId("asset-none-held")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Mostrar 2 activos vendidos o dados de baja" })).toBeTruthy();
    db.close();
  });
});
