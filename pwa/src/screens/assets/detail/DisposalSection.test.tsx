// "Mark as sold" on the asset page, against a real device database (fake-indexeddb) and the app's
// i18n: the form speaks the shared schema's messages in the reader's language, takes the amount the
// reader's way (260.000,50 in Spanish), writes the asset's disposal, and "Undo sale" clears it.
import "fake-indexeddb/auto";
import { ClientDb, createAsset, updateAsset } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, beforeAll, describe, expect, test } from "vitest";
import { assetDetailSearchSchema } from "../../../router/assetRoutes";
import { AREA_WORKSPACE, openTestDb, renderAreaScreen } from "../../../test/renderAreaScreen";
import { AssetDetailScreen } from "./AssetDetailScreen";
import { DisposalSection } from "./DisposalSection";
import { FinancialSection } from "./FinancialSection";
import { renderDetail } from "./testing";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
let n = 0;

beforeAll(() => import("../../../toast/sonnerToaster"));
afterEach(() => {
  act(() => {
    toast.dismiss();
  });
});

/** The error text linked to a field (aria-describedby), if any. */
function fieldError(input: HTMLElement): string | null {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)).find((el) => el?.dataset.part === "error")?.textContent ?? null;
}

async function flat(db: ClientDb) {
  const made = await createAsset(db, WS, {
    name: "Piso",
    assetClass: "real_estate",
    category: "residential",
    currency: "EUR",
    participation: "100",
    purchaseValue: "200000",
    purchaseDate: "2020-05-01",
    currentValue: "250000",
    valuationDate: "2024-12-01",
  });
  if (!made.ok) throw new Error("refused");
  return made.id;
}

describe("asset page › mark as sold", () => {
  test("refuses a sale before the purchase and without its amount, then records it typed the Spanish way, and undoes it", async () => {
    const db = await ClientDb.open({ name: `disposal-${++n}` });
    const id = await flat(db);
    renderDetail(db, id, <DisposalSection />);
    fireEvent.click(await screen.findByRole("button", { name: "Marcar como vendido" }));
    const dialog = await screen.findByRole("dialog", { name: "Marcar «Piso» como vendido o dado de baja" });
    expect(within(dialog).getByRole("radio", { name: "Vendido" }).getAttribute("aria-checked")).toBe("true");
    const date = within(dialog).getByRole("textbox", { name: /^Fecha de baja/ });
    const amount = within(dialog).getByRole("textbox", { name: /^Importe de la venta/ });

    fireEvent.change(date, { target: { value: "30/04/2020" } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Guardar la baja" })));
    await waitFor(() => expect(fieldError(date)).toBe("La fecha de baja no puede ser anterior a la fecha de compra"));
    expect(fieldError(amount)).toBe("Este campo es obligatorio");
    expect((await db.get("assets", id))?.fields.disposal).toBeUndefined();

    fireEvent.change(date, { target: { value: "15/01/2025" } });
    fireEvent.change(amount, { target: { value: "260.000,50" } });
    fireEvent.blur(amount);
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Guardar la baja" })));
    await waitFor(async () => expect((await db.get("assets", id))?.fields.disposal).toEqual({ kind: "sold", date: "2025-01-15", amount: "260000.50" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());

    // The section now says how and when it left, and offers to undo it.
    const facts = await screen.findByTestId("disposal-facts");
    expect(within(facts).getByTestId("fact-disposal-status").textContent).toContain("Vendido");
    expect(within(facts).getByTestId("fact-disposal-amount").textContent?.replace(/\s/g, " ")).toContain("260.000,50 €");
    fireEvent.click(screen.getByRole("button", { name: "Deshacer la venta" }));
    await waitFor(async () => expect((await db.get("assets", id))?.fields.disposal).toBeUndefined());
    expect(await screen.findByRole("button", { name: "Marcar como vendido" })).toBeTruthy();
    db.close();
  });

  test("a gift needs no amount; a disposed asset's figures are read-only (no valuation form)", async () => {
    const db = await ClientDb.open({ name: `disposal-${++n}` });
    const id = await flat(db);
    renderDetail(
      db,
      id,
      <>
        <DisposalSection />
        <FinancialSection />
      </>,
      "en",
    );
    expect(await screen.findByTestId("valuation-form")).toBeTruthy();
    fireEvent.click(await screen.findByRole("button", { name: "Mark as sold" }));
    const dialog = await screen.findByRole("dialog");
    fireEvent.click(within(dialog).getByRole("radio", { name: "Given away" }));
    expect(within(dialog).getByRole("textbox", { name: /^Value on that date/ })).toBeTruthy();
    fireEvent.change(within(dialog).getByRole("textbox", { name: /^Disposal date/ }), { target: { value: "24/12/2024" } });
    await act(async () => fireEvent.click(within(dialog).getByRole("button", { name: "Save the disposal" })));
    await waitFor(async () => expect((await db.get("assets", id))?.fields.disposal).toEqual({ kind: "gifted", date: "2024-12-24" }));
    await waitFor(() => expect(screen.queryByTestId("valuation-form")).toBeNull());
    expect(screen.getByRole("button", { name: "Undo sale" })).toBeTruthy();
    db.close();
  });

  test("the asset page of a disposed asset: says so, read-only without a settings tab (even at ?tab=settings), undo and delete still there", async () => {
    const db = await openTestDb();
    const made = await createAsset(db, AREA_WORKSPACE, { name: "Piso", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "250000", valuationDate: "2024-12-01" });
    if (!made.ok) throw new Error("refused");
    expect(await updateAsset(db, made.id, { disposal: { kind: "sold", date: "2025-01-15", amount: "260000" } })).toEqual({ ok: true });
    await renderAreaScreen({
      db,
      url: `/assets/${made.id}/?tab=settings`,
      path: "/assets/$assetId/",
      component: AssetDetailScreen,
      validateSearch: (s) => assetDetailSearchSchema.parse(s),
    });
    const notice = await screen.findByTestId("disposed-notice");
    expect(notice.textContent?.replace(/\s/g, " ")).toBe(
      "Vendido el 15 ene 2025 por 260.000,00 €. Ya no cuenta en tu patrimonio actual; el patrimonio pasado y sus rentabilidades lo conservan hasta esa fecha.",
    );
    expect(screen.getByTestId("disposed-badge").textContent).toBe("Vendido");
    expect(screen.queryByRole("tab", { name: "Ajustes" })).toBeNull();
    expect(await screen.findByTestId("section-disposal")).toBeTruthy();
    expect(screen.queryByTestId("valuation-form")).toBeNull();
    expect(screen.getByRole("button", { name: "Deshacer la venta" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Eliminar activo…" })).toBeTruthy();
    // Its cash flows stay listed, but no new one is offered and no yield is shown.
    const flows = await screen.findByTestId("asset-flows");
    expect(within(flows).queryByTestId("asset-flow-add")).toBeNull();
    expect(within(flows).queryByTestId("asset-flow-figures")).toBeNull();
    // Undone: held again, the settings tab and the valuation form come back.
    fireEvent.click(screen.getByRole("button", { name: "Deshacer la venta" }));
    expect(await screen.findByRole("tab", { name: "Ajustes" })).toBeTruthy();
    expect(screen.queryByTestId("disposed-notice")).toBeNull();
    db.close();
  });
});
