import { describe, expect, test } from "vitest";
import { groupInstructions, instructionFor } from "./instructions";

describe("instruction groups", () => {
  test("general first, then per asset, then per beneficiary, each by priority; unknown targets read as general", () => {
    const assets = [{ id: "p", fields: { name: "Piso" } }, { id: "c", fields: { name: "Coche" } }];
    const people = [{ id: "a", fields: { name: "Ana" } }];
    const r = (id: string, fields: Record<string, string>) => ({ id, fields: { text: id, ...fields } });
    const groups = groupInstructions(
      [
        r("g-low", { priority: "low" }),
        r("g-high", { priority: "high" }),
        r("p-none", { assetId: "p" }),
        r("p-medium", { assetId: "p", beneficiaryId: "a", priority: "medium" }),
        r("a-1", { beneficiaryId: "a" }),
        r("c-1", { assetId: "c" }),
        r("gone", { assetId: "deleted-elsewhere" }),
      ] as never,
      assets,
      people,
    );
    expect(groups.map((g) => [g.kind, g.name, g.items.map((i) => i.id)])).toEqual([
      ["general", "", ["g-high", "g-low", "gone"]],
      ["asset", "Coche", ["c-1"]],
      ["asset", "Piso", ["p-medium", "p-none"]],
      ["beneficiary", "Ana", ["a-1"]],
    ]);
  });
});

describe("who an instruction is for (the binder and the Instructions tab)", () => {
  test("named under its asset's group when its beneficiary is on this device; never twice under the beneficiary's own", () => {
    const people = [{ id: "a", fields: { name: "Ana" } }];
    const both = { id: "i", fields: { text: "Entregar con su caja original", assetId: "r", beneficiaryId: "a" } };
    expect(instructionFor({ kind: "asset" }, both, people)).toBe("Ana");
    expect(instructionFor({ kind: "beneficiary" }, both, people)).toBeUndefined();
    expect(instructionFor({ kind: "asset" }, { ...both, fields: { ...both.fields, beneficiaryId: "gone" } }, people)).toBeUndefined();
    expect(instructionFor({ kind: "asset" }, { id: "j", fields: { text: "x", assetId: "r" } }, people)).toBeUndefined();
  });
});
