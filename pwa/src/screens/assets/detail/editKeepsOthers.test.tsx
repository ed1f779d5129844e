// The asset detail's edit dialogs against a real device database: saving writes only what the reader
// changed, so another device's edit that reaches this device while a dialog is open (applied to the
// device database meanwhile) is not silently reverted. (The financial dialog: FinancialSection.test.tsx.)
import "fake-indexeddb/auto";
import { ClientDb, createAsset, updateAsset } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { InstructionsSection } from "./InstructionsSection";
import { KindFieldsSection } from "./KindFieldsSection";
import { renderDetail } from "./testing";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
const FLAT = {
  name: "Piso",
  assetClass: "real_estate",
  category: "residential",
  currency: "EUR",
  participation: "100",
  currentValue: "250000",
  valuationDate: "2025-01-15",
  yearOfConstruction: 1998,
  area: { value: "95", unit: "m2" },
  taxLocation: { country: "ES", state: "Valencia", city: "Valencia" },
} as const;

let n = 0;

async function setUp() {
  const db = await ClientDb.open({ name: `asset-edit-${++n}` });
  const made = await createAsset(db, WS, FLAT as never);
  if (!made.ok) throw new Error(JSON.stringify(made));
  return { db, id: made.id };
}

describe("asset edit dialogs", () => {
  test("the kind's fields dialog keeps another device's year of construction; the reader's description is written", async () => {
    const { db, id } = await setUp();
    renderDetail(db, id, <KindFieldsSection structures={[]} />);
    fireEvent.click(await screen.findByRole("button", { name: "Editar datos" }));
    const dialog = await screen.findByTestId("kind-dialog");
    await act(async () => {
      expect(await updateAsset(db, id, { yearOfConstruction: 2001, area: { value: "97", unit: "m2" } })).toEqual({ ok: true });
    });
    fireEvent.change(within(dialog).getByRole("textbox", { name: /^Descripción/ }), { target: { value: "Piso de la abuela" } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" })));
    await waitFor(() => expect(screen.queryByTestId("kind-dialog")).toBeNull());
    const stored = (await db.get("assets", id))?.fields;
    expect([stored?.description, stored?.yearOfConstruction, stored?.area]).toEqual(["Piso de la abuela", 2001, { value: "97", unit: "m2" }]);
    db.close();
  });

  test("the instruction dialog keeps another device's priority; the reader's text is written", async () => {
    const { db, id } = await setUp();
    const made = await db.create("legacyInstructions", WS, { text: "Vended el piso.", assetId: id, priority: "medium" });
    if (!made.ok) throw new Error(JSON.stringify(made));
    renderDetail(db, id, <InstructionsSection />);
    fireEvent.click(await screen.findByRole("button", { name: "Editar" }));
    const dialog = await screen.findByRole("dialog");
    await act(async () => {
      expect(await db.update("legacyInstructions", made.id, { priority: "high" })).toEqual({ ok: true });
    });
    fireEvent.change(within(dialog).getByRole("textbox", { name: /^Instrucción/ }), { target: { value: "Vended el piso y repartid." } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Guardar" })));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect((await db.get("legacyInstructions", made.id))?.fields).toEqual({ text: "Vended el piso y repartid.", assetId: id, priority: "high" });
    db.close();
  });
});
