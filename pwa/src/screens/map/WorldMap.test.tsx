// The world map draws the countries with assets as buttons: a shape for the ones the 110 m file
// has, a marker for the ones too small for it (Andorra, Monaco…), each chosen by click or keyboard.
import { fireEvent, render } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { SMALL_COUNTRIES } from "./smallCountries";
import WorldMap, { type CountryFill } from "./WorldMap";

describe("WorldMap", () => {
  it("draws Spain as a shape and Andorra and Monaco as markers, all selectable", () => {
    const fills = new Map<string, CountryFill>([
      ["ES", { code: "ES", label: "España: 300.000,00 €", fill: "#08519c" }],
      ["AD", { code: "AD", label: "Andorra: 1.000,00 €", fill: "#c6dbef" }],
      ["MC", { code: "MC", label: "Mónaco: 2.000,00 €", fill: "#c6dbef" }],
    ]);
    const onSelect = vi.fn();
    const { container } = render(<WorldMap fills={fills} selected="AD" onSelect={onSelect} label="Mapa" />);
    expect(container.querySelector('path[data-country="ES"][role="button"]')).not.toBeNull();
    const andorra = container.querySelector('circle[data-country="AD"][role="button"]')!;
    expect(andorra).not.toBeNull();
    expect(andorra.getAttribute("aria-label")).toBe("Andorra: 1.000,00 €");
    expect(andorra.getAttribute("aria-pressed")).toBe("true");
    // Andorra (42.5° N, 1.6° E) lies south-west of Monaco (43.7° N, 7.4° E): x grows east, y south.
    const monaco = container.querySelector('circle[data-country="MC"]')!;
    expect(Number(andorra.getAttribute("cx"))).toBeLessThan(Number(monaco.getAttribute("cx")));
    expect(Number(andorra.getAttribute("cy"))).toBeGreaterThan(Number(monaco.getAttribute("cy")));
    fireEvent.click(monaco);
    fireEvent.keyDown(andorra, { key: "Enter" });
    expect(onSelect.mock.calls).toEqual([["MC"], ["AD"]]);
    // No marker for a country without assets, and none for a country the shapes already draw.
    expect(container.querySelectorAll("circle")).toHaveLength(2);
  });

  it("the list of small countries has no country the 110 m shapes draw, and real coordinates", () => {
    const codes = SMALL_COUNTRIES.map(([c]) => c);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).not.toContain("ES");
    for (const [, lon, lat] of SMALL_COUNTRIES) {
      expect(Math.abs(lon)).toBeLessThanOrEqual(180);
      expect(Math.abs(lat)).toBeLessThanOrEqual(90);
    }
    expect(codes).toEqual(expect.arrayContaining(["AD", "MC", "MT", "SG", "LI", "SM", "VA", "HK", "BH"]));
  });
});
