// The dashboard's charts write their axes and tooltips the reader's way: "240 mil €" and "2,5 %" in
// Spanish, "€240k" and "2.5%" in English (never "240000" or "2.5%" in Spanish).
import { render } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createI18n } from "../../i18n/i18n";
import Charts from "./Charts";
import type { ChartsProps } from "./Charts";

// jsdom lays nothing out: the charts' container measures 640 × 280, any text 40 × 12.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    const [width, height] = this.classList.contains("recharts-responsive-container") ? [640, 280] : [40, 12];
    return { width, height, top: 0, left: 0, right: width, bottom: height, x: 0, y: 0, toJSON: () => ({}) };
  });
});
afterEach(() => vi.restoreAllMocks());

function ticks(props: ChartsProps, lng: "es" | "en"): string[] {
  const i18n = createI18n({ lng });
  const view = render(
    <I18nextProvider i18n={i18n}>
      <Charts {...props} />
    </I18nextProvider>,
  );
  return [...view.container.querySelectorAll(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value")].map((t) => (t.textContent ?? "").replace(/\s/g, " ")); // Intl spaces are non-breaking
}

const series = [
  { date: "2025-01-31", total: "200000", missing: 0 },
  { date: "2025-02-28", total: "240000", missing: 0 },
  { date: "2025-03-10", total: "250000.5", missing: 0 },
];
const returns = [
  { name: "Inmuebles", figure: { ok: true as const, value: "0.025" } },
  { name: "Inversiones", figure: { ok: true as const, value: "-0.0125" } },
];

describe("chart axes", () => {
  test("net worth history: compact amounts with the base currency", () => {
    expect(ticks({ kind: "line", series, base: "EUR" }, "es")).toEqual(["0 €", "65 mil €", "130 mil €", "195 mil €", "260 mil €"]);
    expect(ticks({ kind: "line", series, base: "USD" }, "en")).toEqual(["US$0", "US$65k", "US$130k", "US$195k", "US$260k"]);
  });

  test("returns: percentages with the reader's decimal separator", () => {
    expect(ticks({ kind: "returns", rows: returns }, "es")).toEqual(["-1,25 %", "0 %", "1,25 %", "2,5 %", "3,75 %"]);
    expect(ticks({ kind: "returns", rows: returns }, "en")).toEqual(["-1.25%", "0%", "1.25%", "2.5%", "3.75%"]);
  });
});
