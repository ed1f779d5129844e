// The flows screen in a router against a real device database: the projection shown (?view=) is
// part of the address and stays through opening and closing a flow's form.
import "fake-indexeddb/auto";
import { deleteCashFlow, saveCashFlow } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { flowsSearchSchema } from "../../router/areaRoutes";
import { AREA_WORKSPACE, openTestDb, renderAreaScreen } from "../../test/renderAreaScreen";
import { FlowsScreen } from "./FlowsScreen";

const rent = { name: "Alquiler del piso", direction: "inflow" as const, amount: "950", currency: "EUR", frequency: "monthly" as const, startDate: "2025-01-01" };

// jsdom has no layout: give elements the size a browser would so the list's virtualizer renders rows.
beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(480);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(1000);
});
afterEach(() => vi.restoreAllMocks());

async function setUp(url: string) {
  const db = await openTestDb();
  const saved = await saveCashFlow(db, AREA_WORKSPACE, rent);
  if (!saved.ok) throw new Error(JSON.stringify(saved));
  const view = await renderAreaScreen({ db, url, path: "/flows", component: FlowsScreen, validateSearch: (s) => flowsSearchSchema.parse(s) });
  return { ...view, db, id: saved.id };
}

describe("flows screen", () => {
  test("opening a flow by its name and closing the form keeps the yearly projection", async () => {
    const { router, id } = await setUp("/flows?view=yearly");
    expect(await screen.findByTestId("projection-yearly")).toBeTruthy();
    const name = await screen.findByRole("link", { name: "Alquiler del piso" });
    expect(new URL(name.getAttribute("href")!, "http://x").searchParams.get("view")).toBe("yearly");
    await act(async () => {
      fireEvent.click(name);
      await router.load();
    });
    expect(router.state.location.search).toEqual({ view: "yearly", edit: id });
    const form = await screen.findByTestId("flow-form");
    await act(async () => {
      fireEvent.click(within(form).getByRole("button", { name: "Cancelar" }));
    });
    await waitFor(() => expect(screen.queryByTestId("flow-form")).toBeNull());
    expect(router.state.location.search).toEqual({ view: "yearly" });
    expect(screen.getByTestId("projection-yearly")).toBeTruthy();
  });

  test("saving the form writes only what was changed: another device's newer amount, synced in while it was open, stays", async () => {
    const { db, id } = await setUp("/flows");
    fireEvent.click(await screen.findByRole("link", { name: "Alquiler del piso" }));
    const form = await screen.findByTestId("flow-form");
    // Another device raises the rent; its edit reaches this device while the form is open.
    expect(await saveCashFlow(db, AREA_WORKSPACE, { ...rent, amount: "1000" }, id)).toEqual({ ok: true, id });
    fireEvent.change(within(form).getByRole("textbox", { name: /Concepto/ }), { target: { value: "Alquiler del piso de la playa" } });
    await act(async () => {
      fireEvent.click(within(form).getByTestId("flow-save"));
    });
    await waitFor(() => expect(screen.queryByTestId("flow-form")).toBeNull());
    expect((await db.get("cashFlows", id))?.fields).toEqual({ ...rent, name: "Alquiler del piso de la playa", amount: "1000" });
  });

  test("a flow deleted on another device while its form is open: the form goes and the screen says why", async () => {
    const { db, id } = await setUp("/flows");
    fireEvent.click(await screen.findByRole("link", { name: "Alquiler del piso" }));
    await screen.findByTestId("flow-form");
    expect(screen.queryByTestId("flow-gone")).toBeNull();
    await act(async () => {
      expect(await deleteCashFlow(db, id)).toEqual({ ok: true });
    });
    await waitFor(() => expect(screen.queryByTestId("flow-form")).toBeNull());
    const gone = await screen.findByTestId("flow-gone");
    expect(gone.getAttribute("role")).toBe("status");
    expect(gone.textContent).toBe("Ese flujo ya no existe en este dispositivo.");
  });

  test("Back after closing or saving a form does not open it again", async () => {
    const { router } = await setUp("/flows");
    fireEvent.click(await screen.findByRole("link", { name: "Alquiler del piso" }));
    let form = await screen.findByTestId("flow-form");
    await act(async () => {
      fireEvent.click(within(form).getByRole("button", { name: "Cancelar" }));
    });
    await waitFor(() => expect(screen.queryByTestId("flow-form")).toBeNull());
    fireEvent.click(screen.getByTestId("flow-new"));
    form = await screen.findByTestId("flow-form");
    fireEvent.change(within(form).getByRole("textbox", { name: /Concepto/ }), { target: { value: "Nómina" } });
    fireEvent.change(within(form).getByRole("textbox", { name: /Importe/ }), { target: { value: "2000" } });
    await act(async () => {
      fireEvent.click(within(form).getByTestId("flow-save"));
    });
    await waitFor(() => expect(screen.queryByTestId("flow-form")).toBeNull());
    // Back, and Back again: never the closed forms, only the list.
    for (let i = 0; i < 2; i++) {
      await act(async () => {
        router.history.back();
        await router.load();
      });
      expect(router.state.location.search).toEqual({});
      expect(screen.queryByTestId("flow-form")).toBeNull();
    }
  });

  test("sorting by amount groups the currencies (A to Z) and orders the amounts within each, never comparing 100 USD with 100 EUR", async () => {
    const db = await openTestDb();
    const flows = [
      { amount: "100", currency: "USD" },
      { amount: "100", currency: "EUR" },
      { amount: "20", currency: "GBP" },
      { amount: "200", currency: "USD" },
      { amount: "50", currency: "EUR" },
    ];
    for (const [i, f] of flows.entries()) {
      const saved = await saveCashFlow(db, AREA_WORKSPACE, { ...rent, name: `Flujo ${i}`, ...f, startDate: `2025-01-0${i + 1}` });
      if (!saved.ok) throw new Error(JSON.stringify(saved));
    }
    await renderAreaScreen({ db, url: "/flows", path: "/flows", component: FlowsScreen, validateSearch: (s) => flowsSearchSchema.parse(s) });
    await screen.findAllByTestId("flow-amount");
    const amounts = () => screen.getAllByTestId("flow-amount").map((a) => a.textContent?.replace(/\s/g, " "));
    const header = screen.getByRole("button", { name: "Importe" });
    fireEvent.click(header);
    expect(amounts()).toEqual(["50,00 €", "100,00 €", "20,00 GBP", "100,00 US$", "200,00 US$"]);
    fireEvent.click(header);
    expect(amounts()).toEqual(["100,00 €", "50,00 €", "20,00 GBP", "200,00 US$", "100,00 US$"]);
  });
});
