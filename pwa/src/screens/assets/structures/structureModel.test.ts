import { describe, expect, it } from "vitest";
import { assetsBelow, buildForest, descendantsOf, lookThrough, shownRowKeys, structurePercent, wouldCycle, type AssetInput, type StructureInput } from "./structureModel";

const s = (id: string, name: string, parent?: string, pct?: string): StructureInput => ({
  id,
  name,
  structureType: "company",
  country: "ES",
  ownershipPercentage: pct,
  parentStructureId: parent,
});
const a = (id: string, structure: string | undefined, participation: string, value?: string): AssetInput => ({
  id,
  name: `Activo ${id}`,
  currency: "EUR",
  participation,
  currentValue: value,
  legalStructureId: structure,
});

describe("buildForest and look-through", () => {
  it("multiplies the percentages along the chain of owners, times the participation", () => {
    // 60 % of a holding that owns 50 % of a company holding a 100 % owned flat worth 1.000.000 €.
    const forest = buildForest([s("h", "Holding", undefined, "60"), s("c", "Compañía", "h", "50")], [a("flat", "c", "100", "1000000")]);
    expect(forest.roots.map((r) => r.id)).toEqual(["h"]);
    expect(forest.children.get("h")?.map((r) => r.id)).toEqual(["c"]);
    expect(structurePercent(forest, "h")).toBe("60");
    expect(structurePercent(forest, "c")).toBe("30");
    expect(lookThrough(forest, a("flat", "c", "100", "1000000"))).toEqual({ percent: "30", value: "300000" });
    // Exact decimals, no binary floats; 4 decimals, half up: 33,33 % × 12,5 % = 4,16625 %.
    const tiny = buildForest([s("x", "X", undefined, "33.33")], []);
    expect(lookThrough(tiny, a("t", "x", "12.5", "0.1"))).toEqual({ percent: "4.1663", value: "0.0042" });
    expect(lookThrough(tiny, a("t", "x", "12.5", "1000000.01"))).toEqual({ percent: "4.1663", value: "41662.5004" });
  });

  it("counts an absent ownership percentage as the whole, and a gone parent as no parent", () => {
    const forest = buildForest([s("a", "A"), s("b", "B", "gone", "40")], [a("1", "a", "50", "10")]);
    expect(forest.roots.map((r) => r.id)).toEqual(["a", "b"]);
    expect(lookThrough(forest, a("1", "a", "50", "10"))).toEqual({ percent: "50", value: "5" });
    expect(structurePercent(forest, "b")).toBe("40");
    expect(lookThrough(forest, a("2", "a", "50"))).toEqual({ percent: "50", value: null });
  });

  it("finds a cycle made by two devices, keeps it finite and gives no figure in or below it", () => {
    // A put X under Y, B put Y under X; Z is owned by X; W is sound.
    const structures = [s("x", "X", "y", "50"), s("y", "Y", "x", "50"), s("z", "Z", "x"), s("w", "W")];
    const forest = buildForest(structures, [a("1", "z", "100", "100"), a("2", "w", "100", "100")]);
    expect(forest.cycles.map((c) => c.map((x) => x.id))).toEqual([["x", "y"]]);
    expect([...forest.inCycle].sort()).toEqual(["x", "y"]);
    expect([...forest.belowCycle]).toEqual(["z"]);
    expect(forest.roots.map((r) => r.id)).toEqual(["w"]);
    expect(structurePercent(forest, "x")).toBeNull();
    expect(lookThrough(forest, a("1", "z", "100", "100"))).toEqual({ percent: null, value: null });
    expect(lookThrough(forest, a("2", "w", "100", "100"))).toEqual({ percent: "100", value: "100" });
    expect([...descendantsOf(forest, "x")].sort()).toEqual(["x", "y", "z"]);
    expect(assetsBelow(forest, "y").map((x) => x.id)).toEqual(["1"]);
    // The rows as the tab draws them: the sound tree, then the cycle's, stopping where it closes.
    expect(shownRowKeys(forest)).toEqual(["w", "asset:2", "x", "y", "z", "asset:1"]);
  });

  it("lists the rows depth first, each structure's own before its assets, as the tab draws them", () => {
    const forest = buildForest(
      [s("h", "Holding"), s("b", "Beta", "h"), s("a", "Alfa", "h"), s("n", "Nieta", "a"), s("o", "Otra")],
      [a("1", "h", "100", "1"), a("2", "a", "100", "1")],
    );
    expect(shownRowKeys(forest)).toEqual(["h", "a", "n", "asset:2", "b", "asset:1", "o"]);
  });

  it("finds a structure that owns itself and long cycles, in a large forest, without recursion", () => {
    const self = buildForest([s("s", "S", "s")], []);
    expect(self.cycles.map((c) => c.map((x) => x.id))).toEqual([["s"]]);
    expect(self.roots).toEqual([]);
    // A chain of 20,000 structures closed into one ring: no stack overflow.
    const ring = Array.from({ length: 20000 }, (_, i) => s(`r${i}`, `R${String(i).padStart(5, "0")}`, `r${(i + 1) % 20000}`));
    const forest = buildForest(ring, []);
    expect(forest.cycles).toHaveLength(1);
    expect(forest.cycles[0]![0]!.id).toBe("r0");
    expect(forest.cycles[0]![1]!.id).toBe("r1");
    expect(forest.inCycle.size).toBe(20000);
    expect(shownRowKeys(forest)).toHaveLength(20000);
    // And a deep chain without a cycle has exact shares at the bottom.
    const chain = Array.from({ length: 20000 }, (_, i) => s(`c${i}`, `C${i}`, i === 0 ? undefined : `c${i - 1}`, i === 19999 ? "50" : "100"));
    expect(structurePercent(buildForest(chain, []), "c19999")).toBe("50");
  });
});

describe("wouldCycle", () => {
  const byId = new Map([s("h", "H"), s("c", "C", "h"), s("d", "D", "c"), s("o", "O"), s("p", "P", "q"), s("q", "Q", "p")].map((x) => [x.id, x]));
  it("refuses the structure itself and anything below it as its owner", () => {
    expect(wouldCycle(byId, "h", "h")).toBe(true);
    expect(wouldCycle(byId, "h", "c")).toBe(true);
    expect(wouldCycle(byId, "h", "d")).toBe(true);
    expect(wouldCycle(byId, "c", "o")).toBe(false);
    expect(wouldCycle(byId, "d", "h")).toBe(false);
    expect(wouldCycle(byId, "h", undefined)).toBe(false);
    expect(wouldCycle(byId, "h", "")).toBe(false);
    // An existing cycle elsewhere ends the walk.
    expect(wouldCycle(byId, "h", "p")).toBe(false);
    expect(wouldCycle(byId, "p", "q")).toBe(true);
  });
});
