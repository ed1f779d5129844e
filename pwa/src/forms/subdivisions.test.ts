// Provinces stored as codes, and names stored before codes matched in either language.
import type { EnumValue } from "@patrimonio/clientdb";
import { describe, expect, test } from "vitest";
import { indexSubdivisions, subdivisionCode, subdivisionOptions, subdivisionText } from "./subdivisions";

const v = (id: number, code: string, parentId: number, es: string, en: string, active = true): EnumValue =>
  ({ id, type: "state", code, parentId, level: "province", labels: { es, en }, order: id, active }) as EnumValue;

const INDEX = indexSubdivisions([
  v(2, "ES-IB", 1, "Illes Balears", "Balearic Islands"),
  v(3, "ES-PM", 2, "Illes Balears", "Balearic Islands"),
  v(4, "ES-NA", 1, "Navarra", "Navarre"),
  v(5, "ES-CO", 1, "Córdoba", "Cordoba"),
  v(6, "AR-X", 9, "Córdoba", "Cordoba"),
]);

describe("subdivisions", () => {
  test("a code reads in the reader's language; a name in either language matches its country's code", () => {
    expect(subdivisionText(INDEX, "ES", "ES-PM", "en")).toBe("Balearic Islands");
    expect(subdivisionText(INDEX, "ES", "ES-PM", "es")).toBe("Illes Balears");
    expect(subdivisionText(INDEX, "ES", "Navarre", "es")).toBe("Navarra");
    expect(subdivisionText(INDEX, "ES", "navarra ", "en")).toBe("Navarre");
    // The province (a leaf) wins over the community of the same name.
    expect(subdivisionCode(INDEX, "ES", "Illes Balears")).toBe("ES-PM");
    expect(subdivisionCode(INDEX, "ES", "cordoba")).toBe("ES-CO");
    expect(subdivisionCode(INDEX, "AR", "Córdoba")).toBe("AR-X");
    // Another country's code does not match; free text and unknown countries stay as stored.
    expect(subdivisionCode(INDEX, "FR", "ES-PM")).toBeUndefined();
    expect(subdivisionText(INDEX, "FR", "Bretagne", "en")).toBe("Bretagne");
    expect(subdivisionText(undefined, "ES", "Navarra", "en")).toBe("Navarra");
  });

  test("the picker offers the country's provinces by code, found by either language's name", () => {
    expect(subdivisionOptions(INDEX, "ES", "en")?.map((o) => [o.value, o.label])).toEqual([
      ["ES-PM", "Balearic Islands"],
      ["ES-NA", "Navarre"],
      ["ES-CO", "Cordoba"],
    ]);
    expect(subdivisionOptions(INDEX, "ES", "en")?.[1]?.keywords).toEqual(["Navarra", "Navarre"]);
    expect(subdivisionOptions(INDEX, "FR", "en")).toBeUndefined();
  });
});
