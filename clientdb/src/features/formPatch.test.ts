// The edit forms' saves write only what the reader changed (formPatch.ts): for each whole-record
// command, a form opens with the record, another device changes a field meanwhile (its edit is
// applied to the device database while the form is open), and the form saves a different field. The
// other device's value stays; the reader's change is written, a cleared field as a clear.
import { describe, expect, test } from "vitest";
import { WORKSPACE, asset, openDevice } from "../../test/support";
import { createAsset } from "./assets";
import { saveBeneficiary } from "./beneficiaries";
import { changedSince, formPatch, sameFieldValue } from "./formPatch";
import { saveLegacyInstruction } from "./legacy";
import { saveLegalStructure } from "./legalStructures";
import { saveLiability } from "./liabilities";

function idOf(r: { ok: boolean }): string {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return (r as unknown as { id: string }).id;
}

describe("formPatch", () => {
  test("keeps only the fields changed since the form opened; a cleared one as null; arrays and objects by value", () => {
    const shape = { name: 1, notes: 2, allocations: 3, phone: 4 };
    const opened = { name: "Ana", notes: "x", allocations: [{ percentage: "50", assetId: "a" }] };
    expect(formPatch(shape, { name: "Ana", allocations: [{ assetId: "a", percentage: "50" }] }, opened)).toEqual({ notes: null });
    expect(formPatch(shape, { name: "Ana María", notes: "x", allocations: [{ assetId: "a", percentage: "60" }] }, opened)).toEqual({
      name: "Ana María",
      allocations: [{ assetId: "a", percentage: "60" }],
    });
    // Without what the form opened with: the whole form, as before.
    expect(formPatch(shape, { name: "Ana" }, undefined)).toEqual({ name: "Ana", notes: null, allocations: null, phone: null });
    expect(changedSince({ a: null, b: "1" }, { b: "1" })).toEqual({});
    expect(sameFieldValue({ x: 1, y: undefined }, { x: 1 })).toBe(true);
    expect(sameFieldValue([1, 2], [2, 1])).toBe(false);
  });
});

describe("an edit form's save keeps another device's newer values", () => {
  test("liability", async () => {
    const { db } = await openDevice();
    const mortgage = { name: "Hipoteca", kind: "mortgage" as const, amountOutstanding: "180000", currency: "EUR", rate: "2.75", creditorName: "Banco Norte" };
    const id = idOf(await saveLiability(db, WORKSPACE, mortgage));
    const opened = (await db.get("liabilities", id))!.fields;
    expect(await db.update("liabilities", id, { amountOutstanding: "179000" })).toEqual({ ok: true }); // another device
    const { creditorName: _c, ...withoutCreditor } = mortgage;
    expect(await saveLiability(db, WORKSPACE, { ...withoutCreditor, name: "Hipoteca del piso" }, id, opened)).toEqual({ ok: true, id });
    expect((await db.get("liabilities", id))?.fields).toEqual({ ...withoutCreditor, name: "Hipoteca del piso", amountOutstanding: "179000" });
  });

  test("beneficiary: the allocations (compared by value) and the other fields", async () => {
    const { db } = await openDevice();
    const flat = idOf(await createAsset(db, WORKSPACE, asset()));
    const ana = { name: "Ana", relationship: "child" as const, phone: "600000000", allocations: [{ assetId: flat, percentage: "50" }] };
    const id = idOf(await saveBeneficiary(db, WORKSPACE, ana));
    const opened = (await db.get("beneficiaries", id))!.fields;
    // Another device gives Ana 60 % of the flat and an email.
    expect(await db.update("beneficiaries", id, { allocations: [{ assetId: flat, percentage: "60" }], email: "ana@example.com" })).toEqual({ ok: true });
    // The form, opened before, renames her and clears the phone; its allocations are as they opened
    // (a new array with its keys in another order).
    const { phone: _p, ...withoutPhone } = ana;
    expect(await saveBeneficiary(db, WORKSPACE, { ...withoutPhone, name: "Ana María", allocations: [{ percentage: "50", assetId: flat }] }, id, opened)).toEqual({ ok: true, id });
    expect((await db.get("beneficiaries", id))?.fields).toEqual({
      name: "Ana María",
      relationship: "child",
      email: "ana@example.com",
      allocations: [{ assetId: flat, percentage: "60" }],
    });
    // A change of the allocations is written (and checked).
    const again = (await db.get("beneficiaries", id))!.fields;
    expect(await saveBeneficiary(db, WORKSPACE, { ...again, allocations: [{ assetId: flat, percentage: "40" }] }, id, again)).toEqual({ ok: true, id });
    expect((await db.get("beneficiaries", id))?.fields.allocations).toEqual([{ assetId: flat, percentage: "40" }]);
  });

  test("legacy instruction", async () => {
    const { db } = await openDevice();
    const flat = idOf(await createAsset(db, WORKSPACE, asset()));
    const id = idOf(await saveLegacyInstruction(db, WORKSPACE, { text: "Vended el piso.", priority: "medium" }));
    const opened = (await db.get("legacyInstructions", id))!.fields;
    expect(await db.update("legacyInstructions", id, { assetId: flat, text: "Vended el piso de la playa." })).toEqual({ ok: true });
    expect(await saveLegacyInstruction(db, WORKSPACE, { text: "Vended el piso." }, id, opened)).toEqual({ ok: true, id });
    expect((await db.get("legacyInstructions", id))?.fields).toEqual({ text: "Vended el piso de la playa.", assetId: flat });
  });

  test("legal structure", async () => {
    const { db } = await openDevice();
    const holding = idOf(await saveLegalStructure(db, WORKSPACE, { name: "Holding", structureType: "holding_company", country: "ES" }));
    const id = idOf(await saveLegalStructure(db, WORKSPACE, { name: "Filial", structureType: "holding_company", country: "ES", ownershipPercentage: "100" }));
    const opened = (await db.get("legalStructures", id))!.fields;
    expect(await db.update("legalStructures", id, { parentStructureId: holding, ownershipPercentage: "80" })).toEqual({ ok: true });
    expect(await saveLegalStructure(db, WORKSPACE, { ...opened, name: "Filial SL" }, id, opened)).toEqual({ ok: true, id });
    expect((await db.get("legalStructures", id))?.fields).toEqual({ name: "Filial SL", structureType: "holding_company", country: "ES", ownershipPercentage: "80", parentStructureId: holding });
  });
});
