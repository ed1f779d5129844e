// The liability form against a real device database: saving writes only what the reader changed, so
// another device's edit that reaches this device while the form is open is not silently reverted.
import "fake-indexeddb/auto";
import { ClientDb, createAsset, saveLiability, type SyncedRecord } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { renderDetail } from "../assets/detail/testing";
import { LiabilityFormDialog } from "./LiabilityFormDialog";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";

describe("liability form", () => {
  test("saving writes only what was changed: another device's amount and rate, synced in while it was open, stay", async () => {
    const db = await ClientDb.open({ name: "liability-form-1" });
    const made = await createAsset(db, WS, { name: "Piso", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "250000", valuationDate: "2025-01-15" });
    if (!made.ok) throw new Error(JSON.stringify(made));
    const mortgage = { name: "Hipoteca", kind: "mortgage" as const, creditorName: "Banco Norte", amountOutstanding: "180000", amountAsOf: "2025-01-01", currency: "EUR", rate: "2.75" };
    const saved = await saveLiability(db, WS, mortgage);
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    const liability = (await db.get("liabilities", saved.id)) as SyncedRecord<"liabilities">;
    let done = 0;
    renderDetail(db, made.id, <LiabilityFormDialog db={db} workspaceId={WS} assets={[]} liability={liability} onClose={() => done++} onSaved={() => done++} />);
    const form = await screen.findByTestId("liability-form");
    // Another device updates the amount (and its day) and the rate; it syncs in while the form is open.
    await act(async () => {
      expect(await db.update("liabilities", saved.id, { amountOutstanding: "179000", amountAsOf: "2025-02-01", rate: "3.1" })).toEqual({ ok: true });
    });
    fireEvent.change(within(form).getByRole("textbox", { name: /^Nombre/ }), { target: { value: "Hipoteca del piso" } });
    fireEvent.change(within(form).getByRole("textbox", { name: /^Acreedor/ }), { target: { value: "" } });
    await act(async () => fireEvent.click(within(form).getByTestId("liability-save")));
    await waitFor(() => expect(done).toBe(1));
    const { creditorName: _c, ...rest } = mortgage;
    expect((await db.get("liabilities", saved.id))?.fields).toEqual({ ...rest, name: "Hipoteca del piso", amountOutstanding: "179000", amountAsOf: "2025-02-01", rate: "3.1" });
    db.close();
  });
});
