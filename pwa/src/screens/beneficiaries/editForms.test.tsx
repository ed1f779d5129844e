// The beneficiary and legacy instruction forms against a real device database: saving writes only
// what the reader changed, so another device's edit that reaches this device while the form is open
// (applied to the device database meanwhile) is not silently reverted.
import "fake-indexeddb/auto";
import { ClientDb, createAsset, saveBeneficiary, saveLegacyInstruction, updateAsset, type SyncedRecord } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, test } from "vitest";
import { renderDetail } from "../assets/detail/testing";
import { BeneficiaryDialog } from "./BeneficiaryDialog";
import { EstateContextValue, type EstateContext } from "./context";
import { InstructionsTab } from "./InstructionsTab";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";

let n = 0;

async function setUp() {
  const db = await ClientDb.open({ name: `estate-edit-${++n}` });
  const made = await createAsset(db, WS, { name: "Piso", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "250000", valuationDate: "2025-01-15" });
  if (!made.ok) throw new Error(JSON.stringify(made));
  return { db, flat: made.id };
}

function context(db: ClientDb, records: Partial<EstateContext>): EstateContext {
  return { db, workspaceId: WS, canEdit: true, assets: [], structures: [], beneficiaries: [], instructions: [], liabilities: [], ...records };
}

const idOf = (r: { ok: boolean }) => {
  if (!r.ok) throw new Error(JSON.stringify(r));
  return (r as unknown as { id: string }).id;
};

describe("estate edit forms", () => {
  test("the beneficiary form keeps another device's allocations and email; the reader's new name and cleared phone are written", async () => {
    const { db, flat } = await setUp();
    const id = idOf(await saveBeneficiary(db, WS, { name: "Ana", relationship: "child", phone: "600000000", allocations: [{ assetId: flat, percentage: "50" }] }));
    const record = (await db.get("beneficiaries", id)) as SyncedRecord<"beneficiaries">;
    const asset = (await db.get("assets", flat)) as SyncedRecord<"assets">;
    let closed = 0;
    renderDetail(
      db,
      flat,
      <EstateContextValue.Provider value={context(db, { assets: [asset], beneficiaries: [record] })}>
        <BeneficiaryDialog record={record} onClose={() => closed++} />
      </EstateContextValue.Provider>,
    );
    const dialog = await screen.findByTestId("beneficiary-dialog");
    // Another device gives Ana 60 % of the flat and an email; it syncs in while the form is open.
    await act(async () => {
      expect(await db.update("beneficiaries", id, { allocations: [{ assetId: flat, percentage: "60" }], email: "ana@example.com" })).toEqual({ ok: true });
    });
    fireEvent.change(within(dialog).getByRole("textbox", { name: /^Nombre completo/ }), { target: { value: "Ana María" } });
    fireEvent.change(within(dialog).getByRole("textbox", { name: /^Teléfono/ }), { target: { value: "" } });
    await act(async () => fireEvent.click(within(dialog).getByTestId("beneficiary-save")));
    await waitFor(() => expect(closed).toBe(1));
    expect((await db.get("beneficiaries", id))?.fields).toEqual({
      name: "Ana María",
      relationship: "child",
      email: "ana@example.com",
      allocations: [{ assetId: flat, percentage: "60" }],
    });
    db.close();
  });

  test("the legacy instruction form keeps another device's priority and asset; the reader's new text is written", async () => {
    const { db, flat } = await setUp();
    const id = idOf(await saveLegacyInstruction(db, WS, { text: "Vended el piso.", priority: "medium" }));
    const record = (await db.get("legacyInstructions", id)) as SyncedRecord<"legacyInstructions">;
    const asset = (await db.get("assets", flat)) as SyncedRecord<"assets">;
    renderDetail(
      db,
      flat,
      <EstateContextValue.Provider value={context(db, { assets: [asset], instructions: [record] })}>
        <InstructionsTab />
      </EstateContextValue.Provider>,
    );
    fireEvent.click(await screen.findByRole("button", { name: "Editar" }));
    const dialog = await screen.findByRole("dialog");
    await act(async () => {
      expect(await db.update("legacyInstructions", id, { priority: "high", assetId: flat })).toEqual({ ok: true });
    });
    fireEvent.change(within(dialog).getByRole("textbox", { name: /^Instrucción/ }), { target: { value: "Vended el piso y repartid." } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Guardar instrucción" })));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect((await db.get("legacyInstructions", id))?.fields).toEqual({ text: "Vended el piso y repartid.", priority: "high", assetId: flat });
    db.close();
  });

  test("an allocation offers held assets only: the sold asset an allocation already gives stays in that row, a new row cannot pick it", async () => {
    const { db, flat } = await setUp();
    const made = await createAsset(db, WS, { name: "Casa de la playa", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "90000", valuationDate: "2025-01-15" });
    if (!made.ok) throw new Error(JSON.stringify(made));
    const id = idOf(await saveBeneficiary(db, WS, { name: "Ana", relationship: "child", allocations: [{ assetId: made.id, percentage: "50" }] }));
    expect(await updateAsset(db, made.id, { disposal: { kind: "sold", date: "2025-06-01", amount: "95000" } })).toEqual({ ok: true });
    const record = (await db.get("beneficiaries", id)) as SyncedRecord<"beneficiaries">;
    const assets = (await Promise.all([db.get("assets", flat), db.get("assets", made.id)])) as SyncedRecord<"assets">[];
    const options = (select: HTMLElement) => within(select).getAllByRole("option").map((o) => o.textContent);
    const { unmount } = renderDetail(
      db,
      flat,
      <EstateContextValue.Provider value={context(db, { assets, beneficiaries: [record] })}>
        <BeneficiaryDialog record={record} onClose={() => undefined} />
      </EstateContextValue.Provider>,
    );
    const dialog = await screen.findByTestId("beneficiary-dialog");
    const first = within(dialog).getByRole("combobox", { name: /^Asignación 1: activo/ });
    expect(options(first)).toEqual(["Elige…", "Patrimonio completo", "Casa de la playa", "Piso"]);
    expect((first as HTMLSelectElement).value).toBe(made.id);
    fireEvent.click(within(dialog).getByTestId("add-allocation"));
    expect(options(within(dialog).getByRole("combobox", { name: /^Asignación 2: activo/ }))).toEqual(["Elige…", "Patrimonio completo", "Piso"]);
    // Changed to the flat, the sold house is still there to go back to (nothing lost before saving).
    fireEvent.change(first, { target: { value: flat } });
    expect(options(first)).toContain("Casa de la playa");
    unmount();

    // A new beneficiary: held assets only.
    renderDetail(
      db,
      flat,
      <EstateContextValue.Provider value={context(db, { assets, beneficiaries: [record] })}>
        <BeneficiaryDialog onClose={() => undefined} />
      </EstateContextValue.Provider>,
    );
    fireEvent.click(within(await screen.findByTestId("beneficiary-dialog")).getByTestId("add-allocation"));
    expect(options(screen.getByRole("combobox", { name: /^Asignación 1: activo/ }))).toEqual(["Elige…", "Patrimonio completo", "Piso"]);
    db.close();
  });

  test("an instruction offers held assets only, plus the sold asset it is already about", async () => {
    const { db, flat } = await setUp();
    const made = await createAsset(db, WS, { name: "Casa de la playa", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "90000", valuationDate: "2025-01-15" });
    if (!made.ok) throw new Error(JSON.stringify(made));
    const id = idOf(await saveLegacyInstruction(db, WS, { text: "Vended la casa.", assetId: made.id }));
    expect(await updateAsset(db, made.id, { disposal: { kind: "sold", date: "2025-06-01", amount: "95000" } })).toEqual({ ok: true });
    const record = (await db.get("legacyInstructions", id)) as SyncedRecord<"legacyInstructions">;
    const assets = (await Promise.all([db.get("assets", flat), db.get("assets", made.id)])) as SyncedRecord<"assets">[];
    const options = () => within(screen.getByRole("dialog")).getByRole("combobox", { name: /^Activo/ });
    const names = () => within(options()).getAllByRole("option").map((o) => o.textContent);
    renderDetail(
      db,
      flat,
      <EstateContextValue.Provider value={context(db, { assets, instructions: [record] })}>
        <InstructionsTab />
      </EstateContextValue.Provider>,
    );
    fireEvent.click(await screen.findByRole("button", { name: "Editar" }));
    await screen.findByRole("dialog");
    expect(names()).toEqual(["Ningún activo (general)", "Casa de la playa", "Piso"]);
    expect((options() as HTMLSelectElement).value).toBe(made.id);
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    fireEvent.click(screen.getByTestId("add-instruction"));
    await screen.findByRole("dialog");
    expect(names()).toEqual(["Ningún activo (general)", "Piso"]);
    db.close();
  });
});
