// The liabilities list in a router against a real device database.
import "fake-indexeddb/auto";
import { saveLiability } from "@patrimonio/clientdb";
import { fireEvent, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { liabilitiesSearchSchema } from "../../router/areaRoutes";
import { AREA_WORKSPACE, openTestDb, renderAreaScreen } from "../../test/renderAreaScreen";
import { LiabilitiesScreen } from "./LiabilitiesScreen";

// jsdom has no layout: give elements the size a browser would so the list's virtualizer renders rows.
beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(480);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(1000);
});
afterEach(() => vi.restoreAllMocks());

describe("liabilities screen", () => {
  test("sorting by the amount outstanding groups the currencies (A to Z) and orders the amounts within each", async () => {
    const db = await openTestDb();
    const debts = [
      { amountOutstanding: "100", currency: "USD" },
      { amountOutstanding: "100", currency: "EUR" },
      { amountOutstanding: "20", currency: "GBP" },
      { amountOutstanding: "200", currency: "USD" },
      { amountOutstanding: "50", currency: "EUR" },
    ];
    for (const [i, d] of debts.entries()) {
      const saved = await saveLiability(db, AREA_WORKSPACE, { name: `Deuda ${i}`, kind: "loan", creditorName: "Banco", amountAsOf: "2025-01-01", ...d });
      if (!saved.ok) throw new Error(JSON.stringify(saved));
    }
    await renderAreaScreen({ db, url: "/liabilities", path: "/liabilities", component: LiabilitiesScreen, validateSearch: (s) => liabilitiesSearchSchema.parse(s) });
    await screen.findAllByTestId("liability-outstanding");
    const amounts = () => screen.getAllByTestId("liability-outstanding").map((a) => a.textContent?.replace(/\s/g, " "));
    const header = screen.getByRole("button", { name: "Pendiente" });
    fireEvent.click(header);
    expect(amounts()).toEqual(["50,00 €", "100,00 €", "20,00 GBP", "100,00 US$", "200,00 US$"]);
    fireEvent.click(header);
    expect(amounts()).toEqual(["100,00 €", "50,00 €", "20,00 GBP", "200,00 US$", "100,00 US$"]);
  });
});
