// The readiness tab looks at what the person still holds: a sold asset is not "without beneficiaries".
import "fake-indexeddb/auto";
import { ClientDb, createAsset, updateAsset, type SyncedRecord } from "@patrimonio/clientdb";
import { screen, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { renderDetail } from "../assets/detail/testing";
import { EstateContextValue } from "./context";
import { ReadinessTab } from "./ReadinessTab";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
const flat = { assetClass: "real_estate" as const, category: "residential", currency: "EUR", participation: "100", currentValue: "250000", valuationDate: "2025-01-15" };

describe("readiness", () => {
  test("a sold asset needs no beneficiary: only the held one is listed and counted", async () => {
    const db = await ClientDb.open({ name: "readiness-sold" });
    const held = await createAsset(db, WS, { name: "Piso de Valencia", ...flat });
    const sold = await createAsset(db, WS, { name: "Piso de Cádiz", ...flat });
    if (!held.ok || !sold.ok) throw new Error("assets not created");
    expect(await updateAsset(db, sold.id, { disposal: { kind: "sold", date: "2025-06-01", amount: "260000" } })).toEqual({ ok: true });
    const assets = (await Promise.all([db.get("assets", held.id), db.get("assets", sold.id)])) as SyncedRecord<"assets">[];
    renderDetail(
      db,
      held.id,
      <EstateContextValue.Provider value={{ db, workspaceId: WS, canEdit: true, assets, structures: [], beneficiaries: [], instructions: [], liabilities: [] }}>
        <ReadinessTab />
      </EstateContextValue.Provider>,
    );
    const without = await screen.findByTestId("readiness-without");
    expect(within(without).getAllByRole("listitem").map((li) => li.textContent)).toEqual([expect.stringContaining("Piso de Valencia")]);
    expect(screen.getByTestId("readiness-count-figure").textContent).toBe("1");
  });
});
