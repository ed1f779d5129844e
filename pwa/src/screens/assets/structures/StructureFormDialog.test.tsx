// The legal structure form against a real device database: saving writes only what the reader
// changed, so another device's edit that reaches this device while the form is open is not silently
// reverted.
import "fake-indexeddb/auto";
import { ClientDb, createAsset, saveLegalStructure } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { renderDetail } from "../detail/testing";
import { StructureFormDialog } from "./StructureFormDialog";
import { buildForest } from "./structureModel";
import type { AssetRow, StructureRow } from "./useStructuresData";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";

describe("legal structure form", () => {
  test("saving writes only what was changed: another device's owner and percentage, synced in while it was open, stay", async () => {
    const db = await ClientDb.open({ name: "structure-form-1" });
    const flat = await createAsset(db, WS, { name: "Piso", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "1", valuationDate: "2025-01-15" });
    if (!flat.ok) throw new Error(JSON.stringify(flat));
    const holding = await saveLegalStructure(db, WS, { name: "Holding", structureType: "holding_company", country: "ES" });
    const filial = await saveLegalStructure(db, WS, { name: "Filial", structureType: "holding_company", country: "ES", ownershipPercentage: "100" });
    if (!holding.ok || !filial.ok) throw new Error("refused");
    const rows: StructureRow[] = [
      { id: holding.id, name: "Holding", structureType: "holding_company", country: "ES", conflicts: 0, pending: 0 },
      { id: filial.id, name: "Filial", structureType: "holding_company", country: "ES", ownershipPercentage: "100", conflicts: 0, pending: 0 },
    ];
    const data = {
      db,
      workspace: { workspaceId: WS, role: "owner" as const, canEdit: true, readOnlyReasonKey: null, dbReady: true },
      forest: buildForest<StructureRow, AssetRow>(rows, []),
    };
    let closed = 0;
    renderDetail(db, flat.id, <StructureFormDialog data={data} structure={rows[1]} onClose={() => closed++} />);
    const form = await screen.findByTestId("structure-form");
    // Another device puts the structure under the holding at 80 %; it syncs in while the form is open.
    await act(async () => {
      expect(await db.update("legalStructures", filial.id, { parentStructureId: holding.id, ownershipPercentage: "80" })).toEqual({ ok: true });
    });
    fireEvent.change(within(form).getByRole("textbox", { name: /^Nombre/ }), { target: { value: "Filial SL" } });
    await act(async () => fireEvent.submit(form.querySelector("form")!));
    await waitFor(() => expect(closed).toBe(1));
    expect((await db.get("legalStructures", filial.id))?.fields).toEqual({
      name: "Filial SL",
      structureType: "holding_company",
      country: "ES",
      ownershipPercentage: "80",
      parentStructureId: holding.id,
    });
    db.close();
  });
});
