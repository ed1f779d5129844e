// The plan card says what is owed today when the amount was typed earlier (audit finding 1), and
// that the plan assumes a constant payment (finding 9).
import { act, screen } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { describe, expect, test } from "vitest";
import type { LiabilityRec } from "../../liabilities/hooks";
import { outstandingOf, planOf } from "../../liabilities/listModel";
import { renderWithI18n } from "../../ui/testing";
import { PlanCard } from "./PlanCard";

const mortgage = {
  collection: "liabilities",
  id: "01900000-0000-7000-8000-0000000000d1",
  workspaceId: "w",
  fields: { name: "Hipoteca", kind: "mortgage", amountOutstanding: "100000", currency: "EUR", rate: "3", endDate: "2055-01-15", amountAsOf: "2025-01-15" },
  clocks: {},
  deleted: false,
  unseenByDelete: [],
  pending: 0,
  rejected: 0,
  conflicts: 0,
} as unknown as LiabilityRec;

async function renderCard(today: string) {
  const root = createRootRoute();
  const page = createRoute({
    getParentRoute: () => root,
    path: "/liabilities",
    component: () => <PlanCard liability={mortgage} plan={planOf(mortgage, today)} outstanding={outstandingOf(mortgage, today)} canEdit={false} onDelete={() => {}} />,
  });
  const router = createRouter({ routeTree: root.addChildren([page]), history: createMemoryHistory({ initialEntries: ["/liabilities"] }) });
  await act(async () => {
    renderWithI18n(<RouterProvider router={router} />);
    await router.load();
  });
}

describe("PlanCard", () => {
  test("a year after the amount was typed: today's balance and where it comes from; the constant payment assumed", async () => {
    await renderCard("2026-01-15");
    const asOf = await screen.findByTestId("plan-as-of");
    expect(asOf.textContent?.replace(/\s/g, " ")).toBe("Pendiente hoy: 97.912,24 € (importe de 100.000,00 € a 15 ene 2025, menos las cuotas vencidas desde entonces).");
    expect(screen.getByTestId("figure-payment").textContent?.replace(/\s/g, " ")).toBe("Cuota mensual421,60 €");
    expect(screen.getByTestId("plan-assumption").textContent).toMatch(/Se supone una cuota constante/);
  });

  test("on the day it was typed there is nothing to explain", async () => {
    await renderCard("2025-01-15");
    await screen.findByTestId("plan-assumption");
    expect(screen.queryByTestId("plan-as-of")).toBeNull();
  });
});
