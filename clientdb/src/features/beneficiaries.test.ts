// Beneficiary and legacy instruction commands against a real Dexie database (fake-indexeddb): the
// 100 % rule across beneficiaries, refused targets, and what deleting a beneficiary keeps.
import { describe, expect, test } from "vitest";
import { dbOf } from "../clientdb";
import { OTHER_WORKSPACE, WORKSPACE, asset, openDevice } from "../../test/support";
import { createAsset, deleteAsset } from "./assets";
import { allocatedHundredths } from "./allocations";
import { deleteBeneficiary, saveBeneficiary } from "./beneficiaries";
import { deleteLegacyInstruction, saveLegacyInstruction } from "./legacy";

function idOf(r: { ok: boolean }): string {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return (r as unknown as { id: string }).id;
}

const person = (name: string, allocations?: { assetId?: string; percentage: string }[]) => ({
  name,
  relationship: "child" as const,
  ...(allocations ? { allocations } : {}),
});

describe("beneficiaries", () => {
  test("the allocations of all beneficiaries of one asset, or of the estate, never exceed 100 %", async () => {
    const { db } = await openDevice();
    const flat = idOf(await createAsset(db, WORKSPACE, asset()));
    const car = idOf(await createAsset(db, WORKSPACE, asset({ name: "Coche" })));
    const ana = idOf(await saveBeneficiary(db, WORKSPACE, person("Ana", [{ assetId: flat, percentage: "60" }, { percentage: "50" }])));
    const before = await dbOf(db).outbox.count();

    // 60 + 40.01 > 100: refused on that allocation, nothing written.
    expect(await saveBeneficiary(db, WORKSPACE, person("Luis", [{ assetId: car, percentage: "100" }, { assetId: flat, percentage: "40.01" }]))).toEqual({
      ok: false,
      issues: [{ path: "allocations.1.percentage", key: "validation.percent.sumExceeds", params: {} }],
    });
    // The whole estate is a target of its own: 50 + 60 > 100.
    expect(await saveBeneficiary(db, WORKSPACE, person("Luis", [{ percentage: "60" }]))).toMatchObject({
      ok: false,
      issues: [{ path: "allocations.0.percentage", key: "validation.percent.sumExceeds" }],
    });
    expect(await dbOf(db).outbox.count()).toBe(before);

    // Exactly 100 is fine.
    const luis = idOf(await saveBeneficiary(db, WORKSPACE, person("Luis", [{ assetId: flat, percentage: "40" }, { percentage: "50" }])));
    // A beneficiary's own earlier allocation does not count against their edit: Ana 60 → 55.
    expect(await saveBeneficiary(db, WORKSPACE, person("Ana", [{ assetId: flat, percentage: "55" }]), ana)).toEqual({ ok: true, id: ana });
    // Editing Ana up to 61 would exceed (40 + 61).
    expect((await saveBeneficiary(db, WORKSPACE, person("Ana", [{ assetId: flat, percentage: "61" }]), ana)).ok).toBe(false);
    const all = await db.list("beneficiaries", WORKSPACE);
    expect(allocatedHundredths(all)).toEqual(new Map([[flat, 9500], ["", 5000]]));
    expect(allocatedHundredths(all, luis)).toEqual(new Map([[flat, 5500]]));
    // Saving the whole form clears what it leaves out (Ana's estate share is gone).
    expect((await db.get("beneficiaries", ana))?.fields.allocations).toEqual([{ assetId: flat, percentage: "55" }]);
  });

  test("an allocation of an asset the workspace does not have is refused", async () => {
    const { db } = await openDevice();
    const elsewhere = idOf(await createAsset(db, OTHER_WORKSPACE, asset()));
    const gone = idOf(await createAsset(db, WORKSPACE, asset()));
    await deleteAsset(db, gone);
    for (const assetId of [elsewhere, gone]) {
      expect(await saveBeneficiary(db, WORKSPACE, person("Ana", [{ assetId, percentage: "10" }]))).toEqual({
        ok: false,
        issues: [{ path: "allocations.0.assetId", key: "validation.asset.missing", params: {} }],
      });
    }
    // One record's own rules still come from the shared schema (one allocation per asset).
    const flat = idOf(await createAsset(db, WORKSPACE, asset()));
    const twice = await saveBeneficiary(db, WORKSPACE, person("Ana", [{ assetId: flat, percentage: "10" }, { assetId: flat, percentage: "10" }]));
    expect(twice).toMatchObject({ ok: false, issues: [{ key: "validation.beneficiary.duplicateAllocation" }] });
  });

  test("deleting a beneficiary keeps their instructions, untied; deleting an asset removes only its allocations", async () => {
    const { db } = await openDevice();
    const flat = idOf(await createAsset(db, WORKSPACE, asset()));
    const ana = idOf(await saveBeneficiary(db, WORKSPACE, { ...person("Ana", [{ assetId: flat, percentage: "100" }, { percentage: "20" }]), email: "ana@example.com" }));
    const about = idOf(await saveLegacyInstruction(db, WORKSPACE, { text: "Para Ana, el reloj del abuelo.", beneficiaryId: ana, assetId: flat, priority: "high" }));
    expect(await deleteAsset(db, flat)).toMatchObject({ ok: true, allocations: 1, instructions: 1 });
    expect((await db.get("beneficiaries", ana))?.fields.allocations).toEqual([{ percentage: "20" }]);
    expect(await deleteBeneficiary(db, ana)).toEqual({ ok: true, instructions: 1 });
    const kept = await db.get("legacyInstructions", about);
    expect(kept?.deleted).toBe(false);
    expect(kept?.fields).toEqual({ text: "Para Ana, el reloj del abuelo.", priority: "high" });
    expect((await db.get("beneficiaries", ana))?.deleted).toBe(true);
  });
});

describe("legacy instructions", () => {
  test("general, per asset and per beneficiary; missing targets refused; edited as a whole; deleted", async () => {
    const { db } = await openDevice();
    const flat = idOf(await createAsset(db, WORKSPACE, asset()));
    const ana = idOf(await saveBeneficiary(db, WORKSPACE, person("Ana")));
    const general = idOf(await saveLegacyInstruction(db, WORKSPACE, { text: "Llamad primero a la notaría." }));
    const onAsset = idOf(await saveLegacyInstruction(db, WORKSPACE, { text: "Vended el piso.", assetId: flat, priority: "medium" }));
    expect(await saveLegacyInstruction(db, WORKSPACE, { text: "x", assetId: "01936f3e-0000-7000-8000-000000000000", beneficiaryId: "01936f3e-0000-7000-8000-000000000001" })).toEqual({
      ok: false,
      issues: [
        { path: "assetId", key: "validation.asset.missing", params: {} },
        { path: "beneficiaryId", key: "validation.notFound", params: {} },
      ],
    });
    // The asset instruction becomes one about Ana (asset and priority cleared).
    expect(await saveLegacyInstruction(db, WORKSPACE, { text: "Para Ana.", beneficiaryId: ana }, onAsset)).toEqual({ ok: true, id: onAsset });
    expect((await db.get("legacyInstructions", onAsset))?.fields).toEqual({ text: "Para Ana.", beneficiaryId: ana });
    // The schema's rules hold (text required).
    expect((await saveLegacyInstruction(db, WORKSPACE, { text: "" })).ok).toBe(false);
    expect(await deleteLegacyInstruction(db, general)).toEqual({ ok: true });
    expect((await db.list("legacyInstructions", WORKSPACE)).map((r) => r.id)).toEqual([onAsset]);
  });
});
