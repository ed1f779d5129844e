// The dashboard's charts write their axes and tooltips the reader's way: "240 mil €" and "2,5 %" in
// Spanish, "€240k" and "2.5%" in English (never "240000" or "2.5%" in Spanish).
import { render } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { createI18n } from "../../i18n/i18n";
import type { Slice } from "../../figures/types";
vi.mock("@tanstack/react-router", () => ({ useNavigate: () => () => undefined }));
vi.mock("../../assets/useAssetLabels", () => ({ useAssetLabels: () => ({ classLabel: (c: string) => c, categoryLabel: (c: string) => c }) }));

const { default: Charts } = await import("./Charts");
import type { ChartsProps } from "./Charts";

// jsdom lays nothing out: the charts' container measures 640 × 280, any text 40 × 12.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, "getBoundingClientRect").mockImplementation(function (this: HTMLElement) {
    const [width, height] = this.classList.contains("recharts-responsive-container") ? [640, 280] : [40, 12];
    return { width, height, top: 0, left: 0, right: width, bottom: height, x: 0, y: 0, toJSON: () => ({}) };
  });
});
afterEach(() => vi.restoreAllMocks());

function draw(props: ChartsProps, lng: "es" | "en" = "es") {
  const i18n = createI18n({ lng });
  return render(
    <I18nextProvider i18n={i18n}>
      <Charts {...props} />
    </I18nextProvider>,
  );
}

function ticks(props: ChartsProps, lng: "es" | "en"): string[] {
  const view = draw(props, lng);
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

describe("net worth history", () => {
  test("marks the points that leave amounts out for a missing exchange rate (a dip is not a loss)", () => {
    const incomplete = [series[0]!, { ...series[1]!, missing: 2 }, series[2]!];
    const view = draw({ kind: "line", series: incomplete, base: "EUR" });
    const marked = [...view.container.querySelectorAll("circle[data-missing]")].map((c) => c.getAttribute("data-missing"));
    expect(marked).toEqual(["2"]);
  });
});

describe("distribution pie", () => {
  test("draws only the groups worth more than nothing (an overdrawn account has no slice)", () => {
    const slice = (key: string, classCode: string, value: string): Slice => ({ key, classId: Number(key), classCode, value, net: value, count: 1, missing: 0 });
    const slices = [slice("3", "investments", "3000"), slice("1", "real_estate", "1000"), slice("4", "bank_accounts", "-500"), slice("6", "collectibles", "0")];
    const view = draw({ kind: "pie", dimension: "class", slices, base: "EUR" });
    const sectors = [...view.container.querySelectorAll(".recharts-pie-sector path")].map((p) => p.getAttribute("name"));
    expect(sectors).toEqual(["investments", "real_estate"]);
  });
});
