import { describe, expect, test } from "vitest";
import { sumByCurrency } from "../../../assets/money";
import { participationValueOf } from "../../../assets/participation";
import { assetSearchText, searchAssets } from "../../../assets/search";
import { buildListIndex, sumUnits, toUnits, unitsToDecimal } from "./listIndex";
import { assetRec } from "./testAssets";

const asset = assetRec;

const ctx = { categoryLabel: (code: string) => (code === "residential" ? "Residencial" : code) };

describe("money as 1e-4 units", () => {
  test("round trips the money format exactly", () => {
    for (const amount of ["0", "1", "0.5", "12.3456", "180000.5", "999999999999999.9999", "0.0001"]) {
      expect(unitsToDecimal(toUnits(amount))).toBe(amount);
    }
  });

  test("sums per currency exactly like the shared totals (decimal.js), on many values", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const assets = Array.from({ length: 2000 }, (_, i) => {
      const whole = Math.floor(random() * 1e12);
      const fraction = String(Math.floor(random() * 10000)).padStart(4, "0").replace(/0+$/, "");
      return asset(String(i), {
        currency: ["EUR", "USD", "JPY"][i % 3]!,
        currentValue: i % 17 === 0 ? undefined : fraction ? `${whole}.${fraction}` : String(whole),
        participation: ["100", "50", "33.33", "12.5", "0.01"][i % 5]!,
      });
    });
    const index = buildListIndex(assets, ctx, new Map());
    const fast = sumUnits(assets.map((a) => ({ units: index.unitsOf(a), currency: a.fields.currency })));
    const reference = sumByCurrency(assets.map((a) => ({ amount: participationValueOf(a.fields), currency: a.fields.currency })));
    expect(fast).toEqual(reference);
    expect(fast.map((t) => t.currency)).toEqual(["EUR", "JPY", "USD"]);
  });
});

describe("the list index", () => {
  test("holds the shared search text of each asset, so the shared search finds the same assets", () => {
    const assets = [
      asset("a", { name: "Fondo de Inversión Europa", assetClass: "investments", category: "fund" }),
      asset("b", { name: "Piso en Sevilla", taxLocation: { country: "ES", city: "Sevilla" } }),
      asset("c", { name: "Cuenta", institution: "Openbank", isin: "US0378331005" }),
    ];
    const index = buildListIndex(assets, ctx, new Map());
    expect(index.texts).toEqual(assets.map((a) => assetSearchText(a, ctx)));
    expect(searchAssets(index, "inversion").map((a) => a.id)).toEqual(["a"]);
    expect(searchAssets(index, "residencial sevilla").map((a) => a.id)).toEqual(["b"]);
    expect(searchAssets(index, "US0378").map((a) => a.id)).toEqual(["c"]);
  });

  test("reuses the facts of unchanged assets and recomputes changed ones", () => {
    const cache = new Map();
    const first = [asset("a", { name: "Piso", currentValue: "100" }), asset("b", { name: "Local", currentValue: "200" })];
    buildListIndex(first, ctx, cache);
    const cachedA = cache.get("a");
    // A new live-query answer: new objects, "a" unchanged, "b" renamed and revalued, "c" new.
    const second = [asset("a", { name: "Piso", currentValue: "100" }), asset("b", { name: "Local grande", currentValue: "250.5" }), asset("c", { name: "Nave" })];
    const index = buildListIndex(second, ctx, cache);
    expect(cache.get("a")).toBe(cachedA);
    expect(index.texts[1]).toBe(assetSearchText(second[1]!, ctx));
    expect(index.unitsOf(second[1]!)).toBe(2505000n);
    expect(index.unitsOf(second[2]!)).toBeUndefined();
    // A part of the list (a class screen) keeps the others' facts for the whole list.
    buildListIndex([second[2]!], ctx, cache);
    expect(cache.get("a")).toBe(cachedA);
  });
});
