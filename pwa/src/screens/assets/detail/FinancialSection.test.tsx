// The financial figures' dialog against a real device database: the current value and its date are
// required (as in the add flow and the kind dialog), so clearing them is refused where it is done.
import "fake-indexeddb/auto";
import { ClientDb, createAsset, updateAsset } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { FinancialDialog } from "./FinancialSection";
import { renderDetail } from "./testing";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";

/** The error text linked to a field (aria-describedby), if any. */
function fieldError(input: HTMLElement): string | null {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.dataset.part === "error")?.textContent ?? null;
}

describe("financial dialog", () => {
  test("the current value and the valuation date cannot be cleared", async () => {
    const db = await ClientDb.open({ name: "financial-1" });
    const made = await createAsset(db, WS, {
      name: "Piso",
      assetClass: "real_estate",
      category: "residential",
      currency: "EUR",
      participation: "100",
      currentValue: "250000",
      valuationDate: "2025-01-15",
    });
    if (!made.ok) throw new Error("refused");
    let closed = 0;
    renderDetail(db, made.id, <FinancialDialog onClose={() => closed++} />);
    const dialog = await screen.findByRole("dialog");
    const value = within(dialog).getByRole("textbox", { name: /^Valor actual/ });
    const date = within(dialog).getByRole("textbox", { name: /^Fecha de valoración/ });
    fireEvent.change(value, { target: { value: "" } });
    fireEvent.change(date, { target: { value: "" } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" })));
    await waitFor(() => expect(fieldError(value)).toBe("Este campo es obligatorio"));
    expect(fieldError(date)).toBe("Este campo es obligatorio");
    expect(closed).toBe(0);
    const stored = (await db.get("assets", made.id))?.fields;
    expect([stored?.currentValue, stored?.valuationDate]).toEqual(["250000", "2025-01-15"]);
    db.close();
  });

  test("saving writes only what was changed: another device's purchase value, synced in while it was open, stays", async () => {
    const db = await ClientDb.open({ name: "financial-2" });
    const made = await createAsset(db, WS, {
      name: "Piso",
      assetClass: "real_estate",
      category: "residential",
      currency: "EUR",
      participation: "100",
      purchaseValue: "200000",
      purchaseDate: "2015-03-01",
      currentValue: "250000",
      valuationDate: "2025-01-15",
      taxValue: "90000",
    });
    if (!made.ok) throw new Error("refused");
    let closed = 0;
    renderDetail(db, made.id, <FinancialDialog onClose={() => closed++} />);
    const dialog = await screen.findByRole("dialog");
    // Another device corrects the purchase value and clears the tax value; the edit reaches this
    // device while the dialog is open.
    await act(async () => {
      expect(await updateAsset(db, made.id, { purchaseValue: "210000", taxValue: null })).toEqual({ ok: true });
    });
    // The reader enters a new current value.
    fireEvent.change(within(dialog).getByRole("textbox", { name: /^Valor actual/ }), { target: { value: "260000" } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" })));
    await waitFor(() => expect(closed).toBe(1));
    const stored = (await db.get("assets", made.id))?.fields;
    expect([stored?.purchaseValue, stored?.taxValue, stored?.currentValue]).toEqual(["210000", undefined, "260000"]);
    db.close();
  });
});
