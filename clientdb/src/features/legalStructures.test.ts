// Legal structure commands against a real Dexie database, and the ownership graph.
import { describe, expect, test } from "vitest";
import { dbOf } from "../clientdb";
import { WORKSPACE, asset, openDevice } from "../../test/support";
import { createAsset } from "./assets";
import { deleteLegalStructure, saveLegalStructure, setStructureParent } from "./legalStructures";
import { ancestorChain, findCycles, structureTree, wouldCreateCycle } from "./structureGraph";

const structure = (name: string, over: Record<string, string> = {}) => ({
  name,
  structureType: "holding_company",
  country: "ES",
  ...over,
});

async function made(r: { ok: boolean }): Promise<string> {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return (r as unknown as { id: string }).id;
}

const cycle = { ok: false, issues: [{ path: "parentStructureId", key: "validation.legalStructure.cycle", params: {} }] };

describe("structure graph", () => {
  const chain = [
    { id: "a" },
    { id: "b", parentStructureId: "a" },
    { id: "c", parentStructureId: "b" },
    { id: "d" },
  ];

  test("a parent that is the structure itself or below it makes a cycle; others do not", () => {
    expect(wouldCreateCycle(chain, "a", "a")).toBe(true);
    expect(wouldCreateCycle(chain, "a", "c")).toBe(true);
    expect(wouldCreateCycle(chain, "a", "b")).toBe(true);
    expect(wouldCreateCycle(chain, "c", "a")).toBe(false);
    expect(wouldCreateCycle(chain, "a", "d")).toBe(false);
    expect(wouldCreateCycle(chain, "a", null)).toBe(false);
    expect(wouldCreateCycle(chain, "d", "missing")).toBe(false);
  });

  test("lists existing cycles once each and ends on cycles elsewhere", () => {
    expect(findCycles(chain)).toEqual([]);
    const merged = [
      { id: "b", parentStructureId: "c" },
      { id: "c", parentStructureId: "b" },
      { id: "x", parentStructureId: "b" },
      { id: "s", parentStructureId: "s" },
      { id: "p", parentStructureId: "q" },
      { id: "q", parentStructureId: "r" },
      { id: "r", parentStructureId: "p" },
      { id: "z", parentStructureId: "gone" },
    ];
    expect(findCycles(merged)).toEqual([["b", "c"], ["p", "q", "r"], ["s"]]);
    // Walking up from a structure that hangs under a cycle terminates.
    expect(wouldCreateCycle(merged, "z", "x")).toBe(false);
    expect(ancestorChain(merged, "x")).toEqual({ chain: ["x", "b", "c"], cycle: true, broken: false });
    expect(ancestorChain(merged, "z")).toEqual({ chain: ["z"], cycle: false, broken: true });
    const tree = structureTree(merged);
    expect([...tree.inCycle].sort()).toEqual(["b", "c", "p", "q", "r", "s"]);
    // Every structure appears exactly once in the tree.
    const listed = [...tree.children.values()].flat().map((s) => s.id).sort();
    expect(listed).toEqual(merged.map((s) => s.id).sort());
    expect(tree.children.get("b")?.map((s) => s.id)).toEqual(["x"]);
  });
});

describe("legal structure commands", () => {
  test("a structure can never own itself, directly or through a chain; nothing is written when refused", async () => {
    const { db } = await openDevice();
    const top = await made(await saveLegalStructure(db, WORKSPACE, structure("Top Holding")));
    const mid = await made(await saveLegalStructure(db, WORKSPACE, structure("Mid SL", { parentStructureId: top, ownershipPercentage: "60" })));
    const low = await made(await saveLegalStructure(db, WORKSPACE, structure("Low SL", { parentStructureId: mid })));
    const before = await dbOf(db).outbox.count();

    expect(await setStructureParent(db, top, top)).toEqual(cycle);
    expect(await setStructureParent(db, top, low)).toEqual(cycle);
    expect(await saveLegalStructure(db, WORKSPACE, structure("Top Holding", { parentStructureId: mid }), top)).toEqual(cycle);
    expect(await dbOf(db).outbox.count()).toBe(before);
    expect((await db.get("legalStructures", top))?.fields.parentStructureId).toBeUndefined();

    expect(await setStructureParent(db, low, top)).toEqual({ ok: true });
    expect((await db.get("legalStructures", low))?.fields.parentStructureId).toBe(top);
    expect(await setStructureParent(db, low, null)).toEqual({ ok: true });
    expect((await db.get("legalStructures", low))?.fields.parentStructureId).toBeUndefined();
  });

  test("a missing parent is refused", async () => {
    const { db } = await openDevice();
    const r = await saveLegalStructure(db, WORKSPACE, structure("A", { parentStructureId: "01890a5d-ac96-774b-bcce-b302099a8057" }));
    expect(r).toEqual({ ok: false, issues: [{ path: "parentStructureId", key: "validation.legalStructure.parentMissing", params: {} }] });
  });

  test("the form's required fields come back with the spec's keys", async () => {
    const { db } = await openDevice();
    const r = await saveLegalStructure(db, WORKSPACE, { name: "", structureType: "", country: "" } as never);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.key).sort()).toEqual([
      "validation.legalStructure.countryRequired",
      "validation.legalStructure.nameRequired",
      "validation.legalStructure.structureTypeRequired",
    ]);
  });

  test("saving the whole form clears the fields it leaves out", async () => {
    const { db } = await openDevice();
    const top = await made(await saveLegalStructure(db, WORKSPACE, structure("Top")));
    const id = await made(await saveLegalStructure(db, WORKSPACE, structure("Filial", { state: "Madrid", ownershipPercentage: "40", parentStructureId: top })));
    expect(await saveLegalStructure(db, WORKSPACE, structure("Filial SL", { ownershipPercentage: "45", parentStructureId: top }), id)).toEqual({ ok: true, id });
    expect((await db.get("legalStructures", id))?.fields).toEqual(structure("Filial SL", { ownershipPercentage: "45", parentStructureId: top }));
  });

  test("deleting a structure unties its children and the assets it holds; nothing else goes", async () => {
    const { db } = await openDevice();
    const top = await made(await saveLegalStructure(db, WORKSPACE, structure("Top")));
    const mid = await made(await saveLegalStructure(db, WORKSPACE, structure("Mid", { parentStructureId: top, ownershipPercentage: "50" })));
    const child = await made(await saveLegalStructure(db, WORKSPACE, structure("Child", { parentStructureId: mid, ownershipPercentage: "80" })));
    const held = await made(await createAsset(db, WORKSPACE, asset({ legalStructureId: mid })));
    const elsewhere = await made(await createAsset(db, WORKSPACE, asset({ legalStructureId: top })));

    expect(await deleteLegalStructure(db, mid)).toEqual({ ok: true, children: 1, assets: 1 });
    expect((await db.get("legalStructures", mid))?.deleted).toBe(true);
    expect((await db.get("legalStructures", child))?.fields).toEqual(structure("Child", { ownershipPercentage: "80" }));
    expect((await db.get("assets", held))?.fields.legalStructureId).toBeUndefined();
    expect((await db.get("assets", held))?.deleted).toBe(false);
    expect((await db.get("assets", elsewhere))?.fields.legalStructureId).toBe(top);
    expect((await db.get("legalStructures", top))?.deleted).toBe(false);
  });

  test("a cycle made by a merge can be fixed by moving one structure out of it", async () => {
    const { db } = await openDevice();
    const a = await made(await saveLegalStructure(db, WORKSPACE, structure("A")));
    const b = await made(await saveLegalStructure(db, WORKSPACE, structure("B", { parentStructureId: a })));
    // What a merge of two offline edits can produce (each valid on its device): A under B, B under A.
    expect((await db.update("legalStructures", a, { parentStructureId: b })).ok).toBe(true);
    const all = (await db.list("legalStructures", WORKSPACE)).map((s) => ({ id: s.id, parentStructureId: s.fields.parentStructureId }));
    expect(findCycles(all)).toEqual([[a, b].sort()]);
    // Editing other fields of a structure in the cycle still works; re-parenting out of it fixes it.
    expect((await saveLegalStructure(db, WORKSPACE, structure("A renamed", { parentStructureId: b }), a)).ok).toBe(true);
    expect(await setStructureParent(db, a, null)).toEqual({ ok: true });
    const fixed = (await db.list("legalStructures", WORKSPACE)).map((s) => ({ id: s.id, parentStructureId: s.fields.parentStructureId }));
    expect(findCycles(fixed)).toEqual([]);
  });
});
