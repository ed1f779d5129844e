// Per-feature asset commands against a real Dexie database (fake-indexeddb, as clientdb's own tests).
import { describe, expect, test } from "vitest";
import { dbOf } from "../clientdb";
import { WORKSPACE, asset, openDevice } from "../../test/support";
import { addValuation, createAsset, deleteAsset, updateAsset } from "./assets";
import { saveLegalStructure } from "./legalStructures";

async function outboxOf(db: Awaited<ReturnType<typeof openDevice>>["db"]) {
  return dbOf(db).outbox.orderBy("mutationId").toArray();
}

const debt = { name: "Hipoteca", kind: "mortgage" as const, amountOutstanding: "150000.50", creditorName: "Banco Uno" };

describe("createAsset", () => {
  test("writes the asset, its first valuation and its debts in one batch, tied to the asset", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset({ currentValue: "300000" , valuationDate: "2025-01-10" }), {
      firstValuation: { date: "2025-02-01", value: "310000", source: "appraisal" },
      debts: [debt, { ...debt, name: "Préstamo reforma", kind: "loan", amountOutstanding: "20000", currency: "USD" }],
    });
    if (!r.ok) throw new Error(JSON.stringify(r.issues));
    expect(r.valuationId).toBeDefined();
    expect(r.liabilityIds).toHaveLength(2);

    const a = await db.get("assets", r.id);
    // The newer first valuation becomes the current value.
    expect(a?.fields).toMatchObject({ currentValue: "310000", valuationDate: "2025-02-01" });
    const v = await db.get("valuations", r.valuationId!);
    expect(v?.fields).toEqual({ assetId: r.id, date: "2025-02-01", value: "310000", currency: "EUR", source: "appraisal" });
    const debts = await Promise.all(r.liabilityIds.map((id) => db.get("liabilities", id)));
    expect(debts.map((d) => [d?.fields.assetId, d?.fields.currency, d?.fields.amountOutstanding])).toEqual([
      [r.id, "EUR", "150000.50"],
      [r.id, "USD", "20000"],
    ]);
    // One outbox entry per record, consecutive: pushed together.
    const out = await outboxOf(db);
    expect(out.map((o) => o.collection)).toEqual(["assets", "valuations", "liabilities", "liabilities"]);
    expect(out.map((o) => o.mutationId)).toEqual([1, 2, 3, 4]);
  });

  test("an asset with a current value and date gets its first valuation from them", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset({ currentValue: "1000", valuationDate: "2025-01-10" }));
    if (!r.ok) throw new Error("refused");
    const vals = await db.list("valuations", WORKSPACE);
    expect(vals.map((v) => v.fields)).toEqual([{ assetId: r.id, date: "2025-01-10", value: "1000", currency: "EUR", source: "manual" }]);
    const none = await createAsset(db, WORKSPACE, asset({ currentValue: "5", valuationDate: "2025-01-10" }), { recordValuation: false });
    expect(none.ok).toBe(true);
    expect("valuationId" in none).toBe(false);
    expect(await db.list("valuations", WORKSPACE)).toHaveLength(1);
  });

  test("a refused debt writes nothing at all and names the debt's field", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset(), {
      firstValuation: { date: "2025-02-01", value: "1" },
      debts: [debt, { ...debt, amountOutstanding: "not money" }],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.issues.map((i) => i.path)).toEqual(["debts.1.amountOutstanding"]);
    expect(await db.list("assets", WORKSPACE, { includeDeleted: true })).toEqual([]);
    expect(await db.list("valuations", WORKSPACE, { includeDeleted: true })).toEqual([]);
    expect(await db.list("liabilities", WORKSPACE, { includeDeleted: true })).toEqual([]);
    expect(await outboxOf(db)).toEqual([]);
  });

  test("a refused asset says which field, with the schema's key", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset({ participation: "60" }));
    expect(r).toEqual({ ok: false, issues: [{ path: "participation", key: "validation.percent.remaining", params: { remaining: 40 } }] });
  });

  test("refuses a legal structure that does not exist", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset({ legalStructureId: "01890a5d-ac96-774b-bcce-b302099a8057" }));
    expect(r).toEqual({ ok: false, issues: [{ path: "legalStructureId", key: "validation.asset.structureMissing", params: {} }] });
    const s = await saveLegalStructure(db, WORKSPACE, { name: "Holding SL", structureType: "holding_company", country: "ES" });
    if (!s.ok) throw new Error("structure refused");
    const ok = await createAsset(db, WORKSPACE, asset({ legalStructureId: s.id }));
    expect(ok.ok).toBe(true);
    if (!ok.ok) return;
    expect((await updateAsset(db, ok.id, { legalStructureId: "01890a5d-ac96-774b-bcce-b302099a8057" })).ok).toBe(false);
    expect((await updateAsset(db, ok.id, { legalStructureId: null })).ok).toBe(true);
    expect((await db.get("assets", ok.id))?.fields.legalStructureId).toBeUndefined();
  });
});

describe("addValuation", () => {
  test("the newest valuation moves the asset's current value; an older one only joins the history", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset({ currentValue: "100", valuationDate: "2025-03-01" }));
    if (!r.ok) throw new Error("refused");
    expect((await addValuation(db, r.id, { date: "2024-12-31", value: "90" })).ok).toBe(true);
    expect((await db.get("assets", r.id))?.fields).toMatchObject({ currentValue: "100", valuationDate: "2025-03-01" });
    expect((await addValuation(db, r.id, { date: "2025-04-01", value: "120.25" })).ok).toBe(true);
    expect((await db.get("assets", r.id))?.fields).toMatchObject({ currentValue: "120.25", valuationDate: "2025-04-01" });
    expect((await db.list("valuations", WORKSPACE)).map((v) => v.fields.value).sort()).toEqual(["100", "120.25", "90"]);
  });

  test("a valuation the asset refuses (before the purchase date) is not written", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset({ purchaseDate: "2025-01-01" }));
    if (!r.ok) throw new Error("refused");
    const v = await addValuation(db, r.id, { date: "2024-06-01", value: "5" });
    expect(v).toEqual({ ok: false, issues: [{ path: "asset.valuationDate", key: "validation.date.valuationBeforePurchase", params: {} }] });
    expect(await db.list("valuations", WORKSPACE)).toEqual([]);
  });
});

describe("an asset's disposal (a sale is an ordinary field edit)", () => {
  test("a bad sale is refused on the device with the schema's key and writes nothing; a good one is written and undone with null", async () => {
    const { db } = await openDevice();
    const r = await createAsset(db, WORKSPACE, asset({ purchaseDate: "2020-05-01" }));
    if (!r.ok) throw new Error("refused");
    const before = (await outboxOf(db)).length;
    expect(await updateAsset(db, r.id, { disposal: { kind: "sold", date: "2025-03-01", amount: "-100" } })).toEqual({
      ok: false,
      issues: [{ path: "disposal.amount", key: "validation.format.money", params: {} }],
    });
    expect(await updateAsset(db, r.id, { disposal: { kind: "sold", date: "2025-03-01" } })).toEqual({
      ok: false,
      issues: [{ path: "disposal.amount", key: "validation.required", params: {} }],
    });
    expect(await updateAsset(db, r.id, { disposal: { kind: "gifted", date: "2020-04-30" } })).toEqual({
      ok: false,
      issues: [{ path: "disposal.date", key: "validation.date.disposalBeforePurchase", params: {} }],
    });
    expect(await updateAsset(db, r.id, { disposal: { kind: "sold", date: "2025-02-30", amount: "1" } })).toMatchObject({
      ok: false,
      issues: [{ path: "disposal.date", key: "validation.format.date" }],
    });
    expect((await outboxOf(db)).length).toBe(before);
    expect((await db.get("assets", r.id))?.fields.disposal).toBeUndefined();

    const sale = { kind: "sold" as const, date: "2025-03-01", amount: "310000.5", note: "Notaría" };
    expect((await updateAsset(db, r.id, { disposal: sale })).ok).toBe(true);
    expect((await db.get("assets", r.id))?.fields.disposal).toEqual(sale);
    // One field in the mutation: it merges as one register with anything else edited elsewhere.
    expect(Object.keys((await outboxOf(db)).at(-1)!.mutation.fields ?? {})).toEqual(["disposal"]);
    expect((await updateAsset(db, r.id, { disposal: null })).ok).toBe(true);
    expect((await db.get("assets", r.id))?.fields.disposal).toBeUndefined();
  });
});

describe("deleteAsset", () => {
  test("deletes its valuations, unties what points at it, and loses nothing else", async () => {
    const { db } = await openDevice();
    const keep = await createAsset(db, WORKSPACE, asset({ name: "Coche", assetClass: "vehicles", category: "car", currentValue: "9000", valuationDate: "2025-01-01" }));
    const gone = await createAsset(db, WORKSPACE, asset({ currentValue: "300000", valuationDate: "2025-01-01" }), { debts: [debt] });
    if (!keep.ok || !gone.ok) throw new Error("refused");
    const other = await db.create("liabilities", WORKSPACE, { ...debt, name: "Tarjeta", kind: "credit_card", currency: "EUR" });
    const instr = await db.create("legacyInstructions", WORKSPACE, { text: "Vender el piso y repartir", assetId: gone.id });
    const general = await db.create("legacyInstructions", WORKSPACE, { text: "Instrucción general" });
    const flow = await db.create("cashFlows", WORKSPACE, {
      name: "Alquiler",
      direction: "inflow",
      amount: "900",
      currency: "EUR",
      frequency: "monthly",
      startDate: "2025-01-01",
      assetId: gone.id,
    });
    const task = await db.create("tasks", WORKSPACE, { title: "IBI", status: "todo", assetId: gone.id });
    const login = await db.create("logins", WORKSPACE, { institution: "Catastro", assetId: gone.id });
    const ben = await db.create("beneficiaries", WORKSPACE, {
      name: "Lucía",
      relationship: "child",
      allocations: [
        { assetId: gone.id, percentage: "50" },
        { assetId: keep.id, percentage: "100" },
      ],
    });
    const ben2 = await db.create("beneficiaries", WORKSPACE, { name: "Pablo", relationship: "child", allocations: [{ assetId: gone.id, percentage: "50" }] });
    for (const x of [other, instr, general, flow, task, login, ben, ben2]) if (!x.ok) throw new Error(JSON.stringify(x));
    const id = (x: { ok: boolean }) => (x as unknown as { id: string }).id;

    const r = await deleteAsset(db, gone.id);
    expect(r).toEqual({ ok: true, valuations: 1, liabilities: 1, instructions: 1, cashFlows: 1, tasks: 1, logins: 1, allocations: 2 });

    expect((await db.get("assets", gone.id))?.deleted).toBe(true);
    expect((await db.get("assets", keep.id))?.deleted).toBe(false);
    // Its valuation is deleted; the other asset's stays.
    const vals = await db.list("valuations", WORKSPACE);
    expect(vals.map((v) => v.fields.assetId)).toEqual([keep.id]);
    // The debt is kept, untied; the other debt is untouched.
    const debts = await db.list("liabilities", WORKSPACE);
    expect(debts.map((d) => [d.fields.name, d.fields.assetId]).sort()).toEqual([
      ["Hipoteca", undefined],
      ["Tarjeta", undefined],
    ]);
    expect((await db.get("legacyInstructions", id(instr)))?.fields).toEqual({ text: "Vender el piso y repartir" });
    expect((await db.get("legacyInstructions", id(general)))?.fields).toEqual({ text: "Instrucción general" });
    expect((await db.get("cashFlows", id(flow)))?.fields.assetId).toBeUndefined();
    expect((await db.get("cashFlows", id(flow)))?.fields.amount).toBe("900");
    expect((await db.get("tasks", id(task)))?.fields).toEqual({ title: "IBI", status: "todo" });
    expect((await db.get("logins", id(login)))?.fields).toEqual({ institution: "Catastro" });
    expect((await db.get("beneficiaries", id(ben)))?.fields.allocations).toEqual([{ assetId: keep.id, percentage: "100" }]);
    expect((await db.get("beneficiaries", id(ben2)))?.fields.allocations).toBeUndefined();
    expect((await db.get("beneficiaries", id(ben2)))?.deleted).toBe(false);

    // Nothing left anywhere points at the deleted asset.
    for (const c of ["valuations", "liabilities", "legacyInstructions", "cashFlows", "tasks", "logins"] as const) {
      for (const rec of await db.list(c, WORKSPACE)) expect((rec.fields as { assetId?: string }).assetId, c).not.toBe(gone.id);
    }
  });

  test("deleting an asset that does not exist is refused and writes nothing", async () => {
    const { db } = await openDevice();
    const r = await deleteAsset(db, "01890a5d-ac96-774b-bcce-b302099a8057");
    expect(r).toEqual({ ok: false, issues: [{ path: "", key: "validation.notFound", params: {} }] });
    expect(await outboxOf(db)).toEqual([]);
  });
});
