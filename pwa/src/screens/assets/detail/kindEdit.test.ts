import type { Asset } from "@patrimonio/shared-schema";
import { describe, expect, it } from "vitest";
import { assetFormSchema, toAssetInput } from "../add/assetForm";
import { formValuesOf, kindOfAsset, kindPatch } from "./kindEdit";

const FLAT: Asset = {
  name: "Piso en Valencia",
  assetClass: "real_estate",
  category: "residential",
  currency: "EUR",
  participation: "50",
  otherOwners: [{ name: "Marta Ruiz", percentage: "50" }],
  currentValue: "300000",
  valuationDate: "2025-01-15",
  area: { value: "95", unit: "m2" },
  yearOfConstruction: 1998,
  risk: 2,
  taxLocation: { country: "ES", state: "Valencia", city: "Valencia" },
} as Asset;

const CAR: Asset = {
  name: "Coche",
  assetClass: "vehicles",
  category: "car",
  currency: "EUR",
  participation: "100",
  currentValue: "12000",
  valuationDate: "2025-02-01",
  vehicle: { brand: "Seat", model: "León", mileage: { value: 84000, unit: "km" }, insured: true },
} as Asset;

/** What the dialog's form gives on save: the add flow's conversion and schema over the values. */
function submit(asset: Asset, edit: (values: Record<string, unknown>) => void = () => {}) {
  const kind = kindOfAsset(asset);
  const values = formValuesOf(asset, kind);
  edit(values);
  const parsed = assetFormSchema(kind, asset.category).safeParse(toAssetInput(values, { kind, assetClass: asset.assetClass, category: asset.category }));
  return { kind, parsed };
}

describe("editing the kind's fields with the add flow's form", () => {
  it("an untouched form is valid and saves nothing", () => {
    for (const asset of [FLAT, CAR]) {
      const { kind, parsed } = submit(asset);
      expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
      expect(kindPatch(asset, parsed.data as never, kind)).toEqual({});
    }
  });

  it("writes only what changed; a cleared field is null", () => {
    const { kind, parsed } = submit(FLAT, (v) => {
      (v.area as Record<string, unknown>).value = "102.5";
      v.yearOfConstruction = "";
    });
    expect(kindPatch(FLAT, parsed.data as never, kind)).toEqual({ area: { value: "102.5", unit: "m2" }, yearOfConstruction: null });
  });

  it("a vehicle's group is written whole, mileage as a whole number", () => {
    const { kind, parsed } = submit(CAR, (v) => {
      const vehicle = v.vehicle as Record<string, unknown>;
      vehicle.plate = "1234 ABC";
      (vehicle.mileage as Record<string, unknown>).value = "90000";
    });
    expect(kindPatch(CAR, parsed.data as never, kind)).toEqual({
      vehicle: { brand: "Seat", model: "León", mileage: { value: 90000, unit: "km" }, plate: "1234 ABC", insured: true },
    });
  });

  it("the kind's required fields and the tax rules give the schema's messages", () => {
    const { parsed } = submit(CAR, (v) => {
      (v.vehicle as Record<string, unknown>).brand = "";
    });
    // (The form maps a missing required value to validation.required: add/assetForm.test.ts.)
    expect(parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["vehicle.brand"]);
    const flat = submit(FLAT, (v) => {
      v.taxLocation = { noTaxRegistration: false, country: "", state: "", city: "" };
    });
    expect(flat.parsed.error?.issues.map((i) => [i.path.join("."), (i as { params?: { key?: string } }).params?.key])).toEqual([["taxLocation.country", "validation.required"]]);
  });

  it("the description and the holding type are edited after creation (the description required for \"other\", at most 256)", () => {
    const { kind, parsed } = submit(FLAT, (v) => {
      v.description = "Piso de la abuela";
      v.holdingType = "joint";
    });
    expect(kindPatch(FLAT, parsed.data as never, kind)).toEqual({ description: "Piso de la abuela", holdingType: "joint" });
    const described = { ...FLAT, description: "Piso", holdingType: "joint" } as Asset;
    const cleared = submit(described, (v) => {
      v.description = "";
      v.holdingType = "";
    });
    expect(kindPatch(described, cleared.parsed.data as never, cleared.kind)).toEqual({ description: null, holdingType: null });

    const other = { name: "Reloj", assetClass: "others", category: "other", currency: "EUR", participation: "100", currentValue: "1", valuationDate: "2025-01-01", description: "Reloj" } as Asset;
    expect(formValuesOf(other, kindOfAsset(other)).description).toBe("Reloj");
    const fixed = submit(other, (v) => {
      v.description = "Reloj de bolsillo";
    });
    expect(kindPatch(other, fixed.parsed.data as never, fixed.kind)).toEqual({ description: "Reloj de bolsillo" });
    const empty = submit(other, (v) => {
      v.description = "";
    });
    expect(empty.parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["description"]);
    const long = submit(other, (v) => {
      v.description = "x".repeat(257);
    });
    expect(long.parsed.error?.issues.map((i) => i.path.join("."))).toEqual(["description"]);
  });

  it("given the asset as the dialog opened, a field the reader left alone keeps another device's newer value (a group merged field by field)", () => {
    // The dialog opened with CAR; meanwhile another device changed the mileage and the description
    // (synced in). The reader adds the plate.
    const now = { ...CAR, description: "El coche de Ana", vehicle: { ...CAR.vehicle, mileage: { value: 85000, unit: "km" } } } as Asset;
    const { kind, parsed } = submit(CAR, (v) => {
      (v.vehicle as Record<string, unknown>).plate = "1234 ABC";
    });
    expect(kindPatch(now, parsed.data as never, kind, CAR)).toEqual({
      vehicle: { brand: "Seat", model: "León", mileage: { value: 85000, unit: "km" }, plate: "1234 ABC", insured: true },
    });
    // Nothing changed by the reader: nothing written, whatever changed elsewhere.
    expect(kindPatch(now, submit(CAR).parsed.data as never, kind, CAR)).toEqual({});

    const flatNow = { ...FLAT, area: { value: "97", unit: "m2" } } as Asset;
    const flat = submit(FLAT, (v) => {
      v.yearOfConstruction = "2001";
    });
    expect(kindPatch(flatNow, flat.parsed.data as never, flat.kind, FLAT)).toEqual({ yearOfConstruction: 2001 });
  });
});
