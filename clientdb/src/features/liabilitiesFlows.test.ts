// Liability and cash-flow commands against a real Dexie database: create and whole-form save
// (cleared fields), the shared schema's rule (end before start), a tied asset that must exist in
// the workspace, delete, and the pending sync mutations they leave.
import { describe, expect, test } from "vitest";
import { OTHER_WORKSPACE, WORKSPACE, asset, openDevice } from "../../test/support";
import { createAsset, deleteAsset } from "./assets";
import { deleteCashFlow, saveCashFlow } from "./flows";
import { ASSET_MISSING_KEY } from "./batch";
import { deleteLiability, saveLiability } from "./liabilities";

function idOf(r: { ok: boolean }): string {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return (r as unknown as { id: string }).id;
}

const mortgage = {
  name: "Hipoteca del piso",
  kind: "mortgage" as const,
  creditorName: "Banco Norte",
  amountOutstanding: "180000",
  currency: "EUR",
  rate: "2.75",
  startDate: "2020-05-01",
  endDate: "2045-05-01",
};

describe("liabilities", () => {
  test("created tied to an asset, saved whole (a field left out is cleared), deleted", async () => {
    const { db } = await openDevice();
    const flat = idOf(await createAsset(db, WORKSPACE, asset({ currentValue: "300000", valuationDate: "2025-01-01" })));
    const id = idOf(await saveLiability(db, WORKSPACE, { ...mortgage, assetId: flat }));
    expect((await db.get("liabilities", id))?.fields).toEqual({ ...mortgage, assetId: flat });

    const { rate: _rate, ...withoutRate } = mortgage;
    expect(await saveLiability(db, WORKSPACE, { ...withoutRate, amountOutstanding: "179000", assetId: flat }, id)).toEqual({ ok: true, id });
    const saved = await db.get("liabilities", id);
    expect(saved?.fields.amountOutstanding).toBe("179000");
    expect(saved?.fields.rate).toBeUndefined();
    expect(saved?.pending).toBe(2);

    expect(await deleteLiability(db, id)).toEqual({ ok: true });
    expect((await db.get("liabilities", id))?.deleted).toBe(true);
    expect(await deleteLiability(db, id)).toMatchObject({ ok: false });
  });

  test("the schema's rule and a missing asset are refused, and nothing is written", async () => {
    const { db } = await openDevice();
    expect(await saveLiability(db, WORKSPACE, { ...mortgage, endDate: "2019-01-01" })).toEqual({
      ok: false,
      issues: [{ path: "endDate", key: "validation.date.endBeforeStart", params: {} }],
    });
    const elsewhere = idOf(await createAsset(db, OTHER_WORKSPACE, asset()));
    expect(await saveLiability(db, WORKSPACE, { ...mortgage, assetId: elsewhere })).toEqual({
      ok: false,
      issues: [{ path: "assetId", key: ASSET_MISSING_KEY, params: {} }],
    });
    const gone = idOf(await createAsset(db, WORKSPACE, asset()));
    await deleteAsset(db, gone);
    expect(await saveLiability(db, WORKSPACE, { ...mortgage, assetId: gone })).toMatchObject({ ok: false });
    expect(await db.list("liabilities", WORKSPACE)).toEqual([]);
  });
});

describe("cash flows", () => {
  const rent = { name: "Alquiler del piso", direction: "inflow" as const, amount: "950", currency: "EUR", frequency: "monthly" as const, startDate: "2025-01-01" };

  test("created, saved whole, refused by the rule, deleted; an asset's delete unties its flows", async () => {
    const { db } = await openDevice();
    const flat = idOf(await createAsset(db, WORKSPACE, asset()));
    const id = idOf(await saveCashFlow(db, WORKSPACE, { ...rent, assetId: flat, notes: "Contrato de 5 años" }));
    expect(await saveCashFlow(db, WORKSPACE, { ...rent, amount: "1000", assetId: flat }, id)).toEqual({ ok: true, id });
    const saved = await db.get("cashFlows", id);
    expect(saved?.fields).toEqual({ ...rent, amount: "1000", assetId: flat });
    expect(await saveCashFlow(db, WORKSPACE, { ...rent, endDate: "2024-12-31" }, id)).toEqual({
      ok: false,
      issues: [{ path: "endDate", key: "validation.date.endBeforeStart", params: {} }],
    });
    await deleteAsset(db, flat);
    expect((await db.get("cashFlows", id))?.fields.assetId).toBeUndefined();
    expect(await deleteCashFlow(db, id)).toEqual({ ok: true });
    expect(await db.list("cashFlows", WORKSPACE)).toEqual([]);
  });

  test("a form's save writes only the fields it changed: another device's newer value of the others stays", async () => {
    const { db } = await openDevice();
    const id = idOf(await saveCashFlow(db, WORKSPACE, { ...rent, notes: "Contrato de 5 años" }));
    const opened = { ...rent, notes: "Contrato de 5 años" };
    // While the form is open, another device raises the rent and sets an end date (synced in).
    expect(await saveCashFlow(db, WORKSPACE, { ...rent, amount: "1000", endDate: "2029-12-31", notes: "Contrato de 5 años" }, id)).toEqual({ ok: true, id });
    // The form saves a new name and clears the notes, the rest as it opened.
    expect(await saveCashFlow(db, WORKSPACE, { ...rent, name: "Alquiler del piso de la playa" }, id, opened)).toEqual({ ok: true, id });
    expect((await db.get("cashFlows", id))?.fields).toEqual({ ...rent, name: "Alquiler del piso de la playa", amount: "1000", endDate: "2029-12-31" });
  });
});
