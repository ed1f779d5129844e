// References two offline devices can leave pointing at a deleted asset or structure: found, and
// repaired with the same decisions as the delete commands, in one transaction.
import { describe, expect, test } from "vitest";
import { WORKSPACE, asset, openDevice } from "../../test/support";
import { findDanglingRefs, repairDanglingRefs } from "./dangling";

describe("dangling references", () => {
  test("are found and repaired; nothing else changes", async () => {
    const { db } = await openDevice();
    const ok = (r: { ok: boolean }) => {
      if (!r.ok) throw new Error(JSON.stringify(r));
      return (r as unknown as { id: string }).id;
    };
    const structure = ok(await db.create("legalStructures", WORKSPACE, { name: "Gone SL", structureType: "company", country: "ES" }));
    const child = ok(await db.create("legalStructures", WORKSPACE, { name: "Child SL", structureType: "company", country: "ES", parentStructureId: structure }));
    const gone = ok(await db.create("assets", WORKSPACE, asset({ name: "Gone" })));
    const kept = ok(await db.create("assets", WORKSPACE, asset({ name: "Kept", legalStructureId: structure })));
    const valuation = ok(await db.create("valuations", WORKSPACE, { assetId: gone, date: "2025-01-01", value: "1", currency: "EUR", source: "manual" }));
    const keptValuation = ok(await db.create("valuations", WORKSPACE, { assetId: kept, date: "2025-01-01", value: "2", currency: "EUR", source: "manual" }));
    const debt = ok(await db.create("liabilities", WORKSPACE, { name: "Deuda", kind: "loan", amountOutstanding: "5", currency: "EUR", assetId: gone }));
    const ben = ok(
      await db.create("beneficiaries", WORKSPACE, {
        name: "Lucía",
        relationship: "child",
        allocations: [
          { assetId: gone, percentage: "10" },
          { assetId: kept, percentage: "20" },
        ],
      }),
    );
    // What a merge can leave: the asset and the structure deleted elsewhere, references kept here.
    expect((await db.delete("assets", gone)).ok).toBe(true);
    expect((await db.delete("legalStructures", structure)).ok).toBe(true);

    const found = await findDanglingRefs(db, WORKSPACE);
    expect(found.map((f) => [f.collection, f.recordId, f.field, f.repair]).sort()).toEqual(
      [
        ["valuations", valuation, "assetId", "delete"],
        ["liabilities", debt, "assetId", "untie"],
        ["beneficiaries", ben, "allocations", "dropAllocation"],
        ["assets", kept, "legalStructureId", "untie"],
        ["legalStructures", child, "parentStructureId", "untie"],
      ].sort(),
    );

    const repaired = await repairDanglingRefs(db, WORKSPACE);
    expect(repaired.ok && repaired.repaired.length).toBe(5);
    expect(await findDanglingRefs(db, WORKSPACE)).toEqual([]);
    expect((await db.get("valuations", valuation))?.deleted).toBe(true);
    expect((await db.get("valuations", keptValuation))?.deleted).toBe(false);
    expect((await db.get("liabilities", debt))?.fields).toEqual({ name: "Deuda", kind: "loan", amountOutstanding: "5", currency: "EUR" });
    expect((await db.get("beneficiaries", ben))?.fields.allocations).toEqual([{ assetId: kept, percentage: "20" }]);
    expect((await db.get("assets", kept))?.fields.legalStructureId).toBeUndefined();
    expect((await db.get("legalStructures", child))?.fields.parentStructureId).toBeUndefined();
    // A second repair has nothing to do.
    expect(await repairDanglingRefs(db, WORKSPACE)).toEqual({ ok: true, repaired: [] });
  });
});
