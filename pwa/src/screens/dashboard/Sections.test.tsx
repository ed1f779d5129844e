// A workspace whose assets have no value yet: the dashboard says so and where to add them, instead
// of an empty pie, empty tables and a flat line at 0 €.
import { render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, test, vi } from "vitest";
import { computeNow, prepare } from "../../figures";
import { createI18n } from "../../i18n/i18n";
import type { DashboardFigures } from "./useDashboardFigures";

vi.mock("@tanstack/react-router", () => ({ Link: ({ children, to }: { children: ReactNode; to: string }) => <a href={to}>{children}</a> }));
vi.mock("../../assets/useAssetLabels", () => ({ useAssetLabels: () => ({ classLabel: (c: string) => c, categoryLabel: (c: string) => c }) }));

const { Sections, Warnings } = await import("./DashboardContent");

function figures(): DashboardFigures {
  return { workspaceId: "w", base: "EUR", setBase: () => undefined, basePending: false, canEdit: true, readOnlyReasonKey: null, today: "2025-03-10", assets: [], structures: [], now: undefined, stale: false, staleSince: undefined, history: undefined, error: undefined };
}

describe("dashboard sections", () => {
  test("assets without any value: an empty state that leads to the asset list", () => {
    const now = computeNow(
      prepare({
        base: "EUR",
        today: "2025-03-10",
        assets: [{ id: "a", name: "Piso", assetClass: "real_estate", classId: 1, category: "residential", currency: "EUR" }],
        structures: [],
        valuations: [],
        liabilities: [],
        rates: [],
        manualRates: [],
      }),
    );
    render(
      <I18nextProvider i18n={createI18n({ lng: "es" })}>
        <Sections figures={figures()} now={now} />
      </I18nextProvider>,
    );
    expect(screen.getByTestId("distribution-empty").textContent).toContain("Ningún activo tiene valor todavía");
    expect(screen.getByRole("link", { name: "Ir a la lista de activos" }).getAttribute("href")).toBe("/assets");
    expect(screen.queryByTestId("slices-class")).toBeNull();
  });
});

describe("dashboard warnings", () => {
  test("hundreds of amounts without a rate: the first 20 listed, the rest counted", () => {
    const assets = Array.from({ length: 25 }, (_, i) => ({ id: `a${i}`, name: `Local ${i}`, assetClass: "real_estate", classId: 1, category: "commercial", currency: "CLP", currentValue: "1000000", valuationDate: "2025-03-01" }));
    const now = computeNow(prepare({ base: "EUR", today: "2025-03-10", assets, structures: [], valuations: [], liabilities: [], rates: [], manualRates: [] }));
    expect(now.netWorth.missing).toHaveLength(25);
    render(
      <I18nextProvider i18n={createI18n({ lng: "es" })}>
        <Warnings now={now} base="EUR" addRate={undefined} />
      </I18nextProvider>,
    );
    const items = [...screen.getByTestId("missing-rates").querySelectorAll("li")].map((li) => li.textContent ?? "");
    expect(items).toHaveLength(21);
    expect(items[20]).toBe("y 5 más");
  });
});
