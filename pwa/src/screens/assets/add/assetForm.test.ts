import { assetSchema, keyErrorMap } from "@patrimonio/shared-schema";
import { describe, expect, it } from "vitest";
import { assetFormSchema, emptyValues, ownershipMessage, toAssetInput, type AssetFormValues } from "./assetForm";
import { CATALOGUE, FORM_KINDS, kindForCategory, type FormKind } from "./catalogue";
import { resolveFlow, type CategoryLookup } from "./flow";

const NOW = new Date(2025, 4, 10);

function values(kind: FormKind, fill: Record<string, unknown>): AssetFormValues {
  const v = structuredClone(emptyValues(kind, { now: NOW })) as Record<string, unknown>;
  for (const [path, value] of Object.entries(fill)) {
    const parts = path.split(".");
    let node = v;
    for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
    node[parts.at(-1)!] = value;
  }
  return v;
}

/** The issues of a form's values as [path, key, params] (the messages the fields show). */
function issues(kind: FormKind, category: string, assetClass: string, fill: Record<string, unknown>) {
  const input = toAssetInput(values(kind, fill), { kind, assetClass: assetClass as never, category });
  const result = assetFormSchema(kind, category).safeParse(input, { error: keyErrorMap });
  if (result.success) return [];
  return result.error.issues.map((i) => {
    const ref = JSON.parse(i.message) as { key: string; params: Record<string, unknown> };
    return [i.path.join("."), ref.key, ref.params] as const;
  });
}

describe("the add-asset form's values", () => {
  it("leave out what was not typed and keep decimals exact", () => {
    const input = toAssetInput(
      values("real_estate", { name: "  Piso en Madrid ", currentValue: "250000.5", "area.value": "85.25", yearOfConstruction: "1990", "taxLocation.country": "ES", risk: "2" }),
      { kind: "real_estate", assetClass: "real_estate", category: "residential" },
    );
    expect(input).toEqual({
      assetClass: "real_estate",
      category: "residential",
      name: "Piso en Madrid",
      currentValue: "250000.5",
      valuationDate: "2025-05-10",
      area: { value: "85.25", unit: "m2" },
      yearOfConstruction: 1990,
      risk: 2,
      participation: "100",
      currency: "EUR",
      taxLocation: { country: "ES" },
    });
    expect(assetSchema.safeParse(input).success).toBe(true);
  });

  it("store a class group only when something in it was given", () => {
    const bare = toAssetInput(values("collectibles", { name: "Reloj", currentValue: "1", "collectible.physicalLocation": "Caja fuerte" }), {
      kind: "collectibles",
      assetClass: "collectibles",
      category: "watches",
    });
    expect(bare.collectible).toEqual({ physicalLocation: "Caja fuerte", certificateOfAuthenticity: false });
    const vehicle = toAssetInput(values("vehicles", { name: "Coche", currentValue: "1", "vehicle.brand": "Seat", "vehicle.model": "Ibiza", "vehicle.mileage.value": "120000" }), {
      kind: "vehicles",
      assetClass: "vehicles",
      category: "car",
    });
    expect(vehicle.vehicle).toEqual({ brand: "Seat", model: "Ibiza", mileage: { value: 120000, unit: "km" }, insured: false });
  });

  it("give the debt only when an amount or a creditor was typed", () => {
    const target = { kind: "cash", assetClass: "bank_accounts", category: "cash" } as const;
    expect(toAssetInput(values("cash", { name: "Efectivo" }), target).debt).toBeUndefined();
    expect(toAssetInput(values("cash", { name: "Efectivo", "debt.amount": "100" }), target).debt).toEqual({ amount: "100" });
  });
});

describe("the add-asset form's validation (the shared schema's messages)", () => {
  it("reports the schema's limits: name 140, description 256, liquidity 1 to 5", () => {
    const found = issues("cash", "cash", "bank_accounts", { name: "x".repeat(141), description: "y".repeat(257), liquidity: "6", currentValue: "1" });
    expect(found).toContainEqual(["name", "validation.string.max", { max: 140 }]);
    expect(found).toContainEqual(["description", "validation.string.max", { max: 256 }]);
    expect(found).toContainEqual(["liquidity", "validation.number.max", { max: 5 }]);
    expect(issues("cash", "cash", "bank_accounts", { name: "a", liquidity: "0", currentValue: "1" })).toContainEqual(["liquidity", "validation.number.min", { min: 1 }]);
  });

  it("says how much is left, or that the shares exceed 100", () => {
    expect(issues("cash", "cash", "bank_accounts", { name: "a", currentValue: "1", participation: "60" })).toEqual([["participation", "validation.percent.remaining", { remaining: 40 }]]);
    const over = issues("cash", "cash", "bank_accounts", { name: "a", currentValue: "1", participation: "60", otherOwners: [{ name: "Ana", percentage: "50" }] });
    expect(over).toEqual([["participation", "validation.percent.sumExceeds", {}]]);
    expect(issues("cash", "cash", "bank_accounts", { name: "a", currentValue: "1", participation: "60", otherOwners: [{ name: "Ana", percentage: "40" }] })).toEqual([]);
  });

  it("requires each kind's fields, all at once", () => {
    const found = issues("vehicles", "car", "vehicles", { currentValue: "" }).map(([path, key]) => `${path}:${key}`);
    expect(found).toEqual(expect.arrayContaining(["name:validation.required", "currentValue:validation.required", "vehicle.brand:validation.required", "vehicle.model:validation.required"]));
    const realEstate = issues("real_estate", "residential", "real_estate", { name: "Piso", currentValue: "1" }).map(([path, key]) => `${path}:${key}`);
    expect(realEstate).toEqual(["taxLocation.country:validation.required"]);
    expect(issues("real_estate", "residential", "real_estate", { name: "Piso", currentValue: "1", "taxLocation.noTaxRegistration": true })).toEqual([]);
    expect(issues("real_estate", "custom", "real_estate", { name: "Piso", currentValue: "1", "taxLocation.country": "ES" })).toEqual([["customCategory", "validation.required", {}]]);
  });

  it("has a form for every kind whose required fields it draws", () => {
    for (const { kind } of FORM_KINDS) {
      const drawn = new Set(["name", "description", "customCategory", "currentValue", "valuationDate", "taxLocation.country", ...CATALOGUE[kind].details.map((f) => f.name)]);
      for (const path of CATALOGUE[kind].required) expect(drawn, `${kind}: ${path}`).toContain(path);
    }
  });

  it("checks dates in order (valuation not before purchase, expiry not before start)", () => {
    const found = issues("derivatives", "derivatives", "investments", {
      name: "Opción",
      currentValue: "1",
      purchaseDate: "2025-06-01",
      "derivative.underlyingAsset": "IBEX 35",
      "derivative.direction": "long",
      "derivative.startDate": "2025-03-01",
      "derivative.expiryDate": "2025-01-01",
    });
    expect(found).toEqual([
      ["valuationDate", "validation.date.valuationBeforePurchase", {}],
      ["derivative.expiryDate", "validation.date.endBeforeStart", {}],
    ]);
  });
});

describe("the live ownership line", () => {
  it("follows the shares typed so far", () => {
    expect(ownershipMessage("100", [])).toBeNull();
    expect(ownershipMessage("70", [{ name: "", percentage: "" }])).toEqual({ key: "validation.percent.remaining", params: { remaining: 30 } });
    expect(ownershipMessage("70", [{ name: "", percentage: "30.01" }])).toEqual({ key: "validation.percent.sumExceeds", params: {} });
    expect(ownershipMessage("abc", [])).toBeNull();
  });
});

describe("the flow's steps from the URL", () => {
  const ids: Record<number, { code: string; classCode: "real_estate" | "cryptocurrencies" }> = {
    101: { code: "residential", classCode: "real_estate" },
    199: { code: "custom", classCode: "real_estate" },
    501: { code: "crypto_asset", classCode: "cryptocurrencies" },
    1000001: { code: "land-1", classCode: "real_estate" },
  };
  const real: CategoryLookup = {
    categoryCodeOf: (id) => ids[id],
    categoryIdOf: (code, classCode) => Number(Object.entries(ids).find(([, v]) => v.code === code && v.classCode === classCode)?.[0]) || undefined,
  };

  it("walks picker → method → form", () => {
    expect(resolveFlow({}, real)).toEqual({ step: "category" });
    expect(resolveFlow({ categoryId: 101 }, real)).toMatchObject({ step: "method", target: { category: "residential", kind: "real_estate" } });
    expect(resolveFlow({ categoryId: 101, mode: "manual" }, real)).toMatchObject({ step: "form" });
    expect(resolveFlow({ categoryId: 101, mode: "connect" }, real)).toMatchObject({ step: "connect" });
    expect(resolveFlow({ categoryId: 7 }, real)).toEqual({ step: "unknownCategory" });
  });

  it("starts from a kind: its category when it fixes one, else the picker on its class", () => {
    expect(resolveFlow({ kind: "crypto", mode: "manual" }, real)).toMatchObject({ step: "form", target: { categoryId: 501, kind: "crypto" } });
    expect(resolveFlow({ kind: "collectibles" }, real)).toEqual({ step: "category", onlyClass: "collectibles" });
    expect(resolveFlow({ kind: "nonsense" }, real)).toEqual({ step: "category" });
  });

  it("gives admin-added categories their class's form", () => {
    expect(resolveFlow({ categoryId: 1000001, mode: "manual" }, real)).toMatchObject({ target: { category: "land-1", kind: "real_estate" } });
    expect(kindForCategory("investments", "fund")).toBe("equity");
    expect(kindForCategory("others", "livestock")).toBe("productive_assets");
    expect(kindForCategory("bank_accounts", "savings_account")).toBe("institutional_accounts");
  });
});
