import { describe, expect, test } from "vitest";
import { collapseAll, collapsedState, expandAll, flattenGroups, normaliseIds, toggleCollapsed, UNKNOWN_GROUP_ID_BASE, unknownGroupId } from "./listModel";

const groups = [
  { id: 1, items: ["piso", "local"] },
  { id: 3, items: ["fondo"] },
  { id: 4, items: ["cuenta", "depósito", "efectivo"] },
];
const key = (s: string) => s;

describe("flattenGroups", () => {
  test("lists each group's header followed by its items, in order", () => {
    const rows = flattenGroups(groups, new Set(), key);
    expect(rows.map((r) => (r.kind === "group" ? `#${r.group.id}` : r.item))).toEqual([
      "#1",
      "piso",
      "local",
      "#3",
      "fondo",
      "#4",
      "cuenta",
      "depósito",
      "efectivo",
    ]);
  });

  test("a collapsed group keeps its header and hides its items", () => {
    const rows = flattenGroups(groups, new Set([1, 4]), key);
    expect(rows.map((r) => (r.kind === "group" ? `#${r.group.id}${r.collapsed ? "-" : "+"}` : r.item))).toEqual(["#1-", "#3+", "fondo", "#4-"]);
  });

  test("without headers only the items, and collapsing does not apply", () => {
    const rows = flattenGroups(groups, new Set([1]), key, { headers: false });
    expect(rows.map((r) => (r.kind === "item" ? r.item : r.key))).toEqual(["piso", "local", "fondo", "cuenta", "depósito", "efectivo"]);
  });

  test("row keys are unique between headers and items", () => {
    const rows = flattenGroups([{ id: 1, items: ["g1"] }], new Set(), key);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });
});

describe("collIds", () => {
  test("normaliseIds sorts, drops repeats and anything but positive whole numbers", () => {
    expect(normaliseIds([4, 1, 4, 0, -2, 2.5, Number.NaN, 3])).toEqual([1, 3, 4]);
  });

  test("toggling adds or removes one id; nothing left collapsed is undefined (no param)", () => {
    expect(toggleCollapsed(undefined, 3)).toEqual([3]);
    expect(toggleCollapsed([3], 1)).toEqual([1, 3]);
    expect(toggleCollapsed([1, 3], 3)).toEqual([1]);
    expect(toggleCollapsed([1], 1)).toBeUndefined();
  });

  test("collapse all adds the shown groups and keeps ids of groups hidden by the search", () => {
    expect(collapseAll(undefined, [1, 3, 4])).toEqual([1, 3, 4]);
    expect(collapseAll([8], [1, 3])).toEqual([1, 3, 8]);
    expect(collapseAll(undefined, [])).toBeUndefined();
  });

  test("expand all opens the shown groups and keeps the others' state", () => {
    expect(expandAll([1, 3, 4], [1, 3, 4])).toBeUndefined();
    expect(expandAll([1, 8], [1, 3])).toEqual([8]);
  });

  test("collapsedState tells whether all or none of the shown groups are collapsed", () => {
    expect(collapsedState(undefined, [1, 3])).toEqual({ all: false, none: true });
    expect(collapsedState([1], [1, 3])).toEqual({ all: false, none: false });
    expect(collapsedState([1, 3, 8], [1, 3])).toEqual({ all: true, none: false });
    expect(collapsedState([8], [])).toEqual({ all: false, none: true });
  });
});

describe("groups of category codes the enumeration cache does not know yet", () => {
  test("get stable, distinct ids above every real one, which collapse like the others", () => {
    const taken = new Set([101, 102]);
    const a = unknownGroupId("yacht_share", taken);
    const b = unknownGroupId("art_fund", taken);
    expect(a).toBeGreaterThan(UNKNOWN_GROUP_ID_BASE);
    expect(Number.isSafeInteger(a) && Number.isSafeInteger(b)).toBe(true);
    expect(a).not.toBe(b);
    // The same code on another visit: the same id (its collapsed state survives in collIds).
    expect(unknownGroupId("yacht_share", new Set())).toBe(a);
    // A clash takes the next free id: no two groups share a key.
    const clash = new Set([a]);
    expect(unknownGroupId("yacht_share", clash)).toBe(a + 1);
    // Collapsing works (ids <= 0 were dropped before), and "collapse all" then counts it.
    const collIds = toggleCollapsed(undefined, a);
    expect(collIds).toEqual([a]);
    expect(normaliseIds(collIds!)).toEqual([a]);
    expect(collapsedState(collapseAll(undefined, [101, a, b]), [101, a, b])).toEqual({ all: true, none: false });
    const keys = flattenGroups([{ id: a, items: [] }, { id: b, items: [] }], new Set(collIds), (x: never) => x).map((r) => r.key);
    expect(new Set(keys).size).toBe(2);
  });
});
