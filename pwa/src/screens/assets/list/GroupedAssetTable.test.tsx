import { act, fireEvent, screen, within } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import type { AssetRec } from "../../../assets/hooks";
import { MAIN_SCROLL_ID } from "../../../router/config";
import { renderWithI18n } from "../../../ui/testing";
import { GroupedAssetTable, type TableGroup } from "./GroupedAssetTable";
import { assetRec } from "./testAssets";

const ASSETS: AssetRec[] = Array.from({ length: 2000 }, (_, i) =>
  assetRec(`a${i}`, { name: `Activo ${String(i).padStart(4, "0")}`, assetClass: "investments", category: "funds", currentValue: "10" }),
);

const GROUPS: TableGroup[] = [{ id: 3, label: "Inversiones", items: ASSETS, totals: [] }];

// jsdom has no layout: the main area is as tall as a window, and scrolls when told to.
beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(800);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(1200);
});
afterEach(() => vi.restoreAllMocks());

async function renderTable() {
  const root = createRootRoute({
    component: () => (
      <main id={MAIN_SCROLL_ID}>
        <GroupedAssetTable label="Activos" groups={GROUPS} collapsed={new Set()} onToggle={() => undefined} categoryLabel={() => "Fondos"} query="" canEdit />
        <button type="button">Fuera</button>
      </main>
    ),
  });
  const router = createRouter({ routeTree: root, history: createMemoryHistory({ initialEntries: ["/"] }) });
  await act(async () => {
    renderWithI18n(<RouterProvider router={router} />);
    await router.load();
  });
}

const rowIndexes = () => screen.getAllByTestId("asset-row").map((r) => Number(r.getAttribute("aria-rowindex")));

describe("GroupedAssetTable", () => {
  test("the row that holds focus stays rendered while the main area scrolls it out of view, until focus leaves the table", async () => {
    await renderTable();
    const main = document.getElementById(MAIN_SCROLL_ID)!;
    const first = screen.getAllByTestId("asset-row")[0]!;
    expect(first.getAttribute("aria-rowindex")).toBe("3"); // the header row, the group's row, then it
    const link = within(first).getByTestId("asset-name");
    act(() => link.focus());
    const scrollTo = (top: number) =>
      act(() => {
        main.scrollTop = top;
        fireEvent.scroll(main);
      });
    scrollTo(52 * 1500);
    // The window moved far down, and the first asset's row is still there, focused.
    expect(Math.min(...rowIndexes().filter((i) => i !== 3))).toBeGreaterThan(1400);
    expect(rowIndexes()).toContain(3);
    expect(link.isConnected).toBe(true);
    expect(document.activeElement).toBe(link);
    // Focus elsewhere: the next window lets it go.
    act(() => screen.getByRole("button", { name: "Fuera" }).focus());
    scrollTo(52 * 1600);
    expect(rowIndexes()).not.toContain(3);
  });
});
