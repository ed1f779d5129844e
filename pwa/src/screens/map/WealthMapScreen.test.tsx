// The wealth map's screen around the map: while the figures compute it says so (not "no asset has a
// tax country"), a chosen country without assets says so (not an empty table), and the legend has
// no value ranges before there is a value to split.
import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { beforeEach, describe, expect, test, vi } from "vitest";
import { computeNow, prepare } from "../../figures";
import type { NowFigures } from "../../figures/types";
import { createI18n } from "../../i18n/i18n";

const state: { search: { country?: string }; now: NowFigures | undefined } = { search: {}, now: undefined };
const flat = { id: "a1", fields: { name: "Piso Madrid", assetClass: "real_estate", taxLocation: { country: "ES" } } };

vi.mock("@tanstack/react-router", () => ({
  getRouteApi: () => ({ useSearch: () => state.search }),
  useNavigate: () => () => undefined,
  Link: ({ children }: { children: ReactNode }) => <a href="#">{children}</a>,
}));
vi.mock("../../assets/useAssetLabels", () => ({ useAssetLabels: () => ({ classLabel: (c: string) => c }) }));
vi.mock("../dashboard/useDashboardFigures", () => ({ useDashboardFigures: () => ({ assets: [flat], now: state.now, base: "EUR" }) }));
vi.mock("./WorldMap", () => ({ default: () => <svg data-testid="world-map" /> }));

const { WealthMapScreen } = await import("./WealthMapScreen");

function show() {
  render(
    <I18nextProvider i18n={createI18n({ lng: "es" })}>
      <WealthMapScreen />
    </I18nextProvider>,
  );
}

function figures(value: string | undefined): NowFigures {
  return computeNow(
    prepare({
      base: "EUR",
      today: "2025-03-10",
      assets: [{ id: "a1", name: "Piso Madrid", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR", currentValue: value, valuationDate: "2025-03-01", taxCountry: "ES" }],
      structures: [],
      valuations: [],
      liabilities: [],
      rates: [],
      manualRates: [],
    }),
  );
}

beforeEach(() => {
  state.search = {};
  state.now = undefined;
});

describe("WealthMapScreen", () => {
  test("while the figures compute: 'computing', not 'no asset has a tax country'", () => {
    show();
    expect(screen.queryByText("No hay activos con país de tributación.")).toBeNull();
    expect(screen.getByText("Calculando…")).not.toBeNull();
    expect(screen.getByTestId("map-legend").textContent).not.toContain("€");
  });

  test("a chosen country without assets says so", () => {
    state.search = { country: "FR" };
    state.now = figures("300000");
    show();
    expect(screen.getByTestId("country-no-assets").textContent).toBe("Ningún activo tributa en Francia.");
    expect(screen.getByTestId("country-table").textContent).toContain("España");
    expect(screen.getByTestId("map-legend").textContent?.replace(/\s/g, " ")).toContain("240.000 € – 300.000 €");
  });

  test("choosing a country is announced to screen readers with how many assets it lists", () => {
    state.search = { country: "ES" };
    state.now = figures("300000");
    show();
    expect(screen.getByTestId("map-announce").getAttribute("aria-live")).toBe("polite");
    expect(screen.getByTestId("map-announce").textContent).toBe("España: 1 activo, listado más arriba.");
  });
});
