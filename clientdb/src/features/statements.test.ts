// Statement import against a real Dexie database: balances become statement valuations and the
// asset's current value, chosen flows become monthly cash flows, all in one transaction and one
// batch; the same statement again writes nothing; an overlapping one writes only what is new; a
// refusal writes nothing; CSV mappings are kept per institution.
import { describe, expect, test } from "vitest";
import { dbOf } from "../clientdb";
import { OTHER_WORKSPACE, WORKSPACE, asset, openDevice } from "../../test/support";
import { createAsset } from "./assets";
import { ASSET_MISSING_KEY } from "./batch";
import { saveCashFlow } from "./flows";
import { importStatement, planBalances, readImportMappings, saveImportMapping, type StatementBalance } from "./statements";

type Db = Awaited<ReturnType<typeof openDevice>>["db"];
const outboxOf = (db: Db) => dbOf(db).outbox.orderBy("mutationId").toArray();

function ok<T extends object>(r: ({ ok: true } & T) | { ok: false; issues: unknown }): T {
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  const { ok: _ok, ...rest } = r;
  return rest as unknown as T;
}

const account = asset({ name: "Cuenta nómina CaixaBank", assetClass: "bank_accounts", category: "current_account", currentValue: "12000", valuationDate: "2024-12-31" });

const january: StatementBalance[] = [
  { date: "2025-01-02", amount: "14795.67", movementIds: ["b88dcbe9baf122cd"] },
  { date: "2025-01-03", amount: "13945.67", movementIds: ["7baba2007b0b22e1"] },
  { date: "2025-01-10", amount: "13938.67", movementIds: ["8a4680045f56e4cd", "8a467f045f56e31a"] },
  { date: "2025-01-31", amount: "13938.67", movementIds: [] },
];
const rent = { name: "ALQUILER PISO CALLE MAYOR 12", direction: "outflow" as const, amount: "850", startDate: "2025-01-03" };

describe("importStatement", () => {
  test("writes the balances as statement valuations, moves the current value, adds the chosen flows, in one batch", async () => {
    const { db } = await openDevice();
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, account, { recordValuation: false }));
    await dbOf(db).outbox.clear();

    const r = ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: january, flows: [rent], label: "Norma 43 · CaixaBank · 2100 •••• 1332" }));
    expect(r).toEqual({ assetId, created: 4, updated: 0, duplicates: 0, negative: [], flowsCreated: 1, flowsExisting: 0 });

    const vals = (await db.list("valuations", WORKSPACE)).map((v) => v.fields).sort((a, b) => a.date.localeCompare(b.date));
    expect(vals[2]).toEqual({
      assetId,
      date: "2025-01-10",
      value: "13938.67",
      currency: "EUR",
      source: "statement",
      statementMovements: ["8a4680045f56e4cd", "8a467f045f56e31a"],
      notes: "Norma 43 · CaixaBank · 2100 •••• 1332",
    });
    expect(vals[3]).not.toHaveProperty("statementMovements");
    expect((await db.get("assets", assetId))?.fields).toMatchObject({ currentValue: "13938.67", valuationDate: "2025-01-31" });
    const flows = await db.list("cashFlows", WORKSPACE);
    expect(flows.map((f) => f.fields)).toEqual([{ ...rent, currency: "EUR", frequency: "monthly", assetId }]);

    // One outbox entry per record, consecutive: one sync batch.
    const out = await outboxOf(db);
    expect(out.map((o) => o.collection)).toEqual(["valuations", "valuations", "valuations", "valuations", "assets", "cashFlows"]);
    expect(out.map((o) => o.mutationId)).toEqual(out.map((_, i) => (out[0]?.mutationId ?? 0) + i));
  });

  test("the same statement again writes nothing and says so", async () => {
    const { db } = await openDevice();
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, account, { recordValuation: false }));
    ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: january, flows: [rent] }));
    const before = (await outboxOf(db)).length;

    const again = ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: january, flows: [rent] }));
    expect(again).toEqual({ assetId, created: 0, updated: 0, duplicates: 4, negative: [], flowsCreated: 0, flowsExisting: 1 });
    expect((await outboxOf(db)).length).toBe(before);
    expect(await db.list("valuations", WORKSPACE)).toHaveLength(4);
  });

  test("an overlapping statement writes only its new days; a day with new movements replaces that day's statement value", async () => {
    const { db } = await openDevice();
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, account, { recordValuation: false }));
    ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: january.slice(0, 2) }));
    const next: StatementBalance[] = [
      january[1] as StatementBalance,
      { date: "2025-01-03", amount: "13900", movementIds: ["7baba2007b0b22e1", "00000000000000aa"] },
      january[2] as StatementBalance,
    ].slice(1);
    const r = ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: next }));
    expect(r).toMatchObject({ created: 1, updated: 1, duplicates: 0 });
    const jan3 = (await db.list("valuations", WORKSPACE)).find((v) => v.fields.date === "2025-01-03");
    expect(jan3?.fields).toMatchObject({ value: "13900", statementMovements: ["7baba2007b0b22e1", "00000000000000aa"] });
  });

  test("a manual valuation of the same value on that date counts as the same balance; a negative balance is reported, not written", async () => {
    const { db } = await openDevice();
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, { ...account, currentValue: "13938.670", valuationDate: "2025-01-31" }));
    const r = ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: [january[3] as StatementBalance, { date: "2025-02-01", amount: "-35.2", movementIds: ["00000000000000bb"] }] }));
    expect(r).toMatchObject({ created: 0, duplicates: 1, negative: ["2025-02-01"] });
  });

  test("creates a new bank account with its valuations in the same transaction", async () => {
    const { db } = await openDevice();
    const newAsset = { name: "Cuenta CaixaBank 1332", assetClass: "bank_accounts" as const, category: "current_account" as const, currency: "EUR", participation: "100", institution: "CaixaBank" };
    const r = ok(await importStatement(db, WORKSPACE, { newAsset, currency: "EUR", balances: january }));
    expect((await db.get("assets", r.assetId))?.fields).toMatchObject({ ...newAsset, currentValue: "13938.67", valuationDate: "2025-01-31" });
    expect((await outboxOf(db)).map((o) => o.collection)).toEqual(["assets", "valuations", "valuations", "valuations", "valuations", "assets"]);
  });

  test("refusals write nothing: missing asset, wrong class, other currency, a bad flow", async () => {
    const { db } = await openDevice();
    const elsewhere = ok(await createAsset(db, OTHER_WORKSPACE, account, { recordValuation: false })).id;
    const flat = ok(await createAsset(db, WORKSPACE, asset(), { recordValuation: false })).id;
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, account, { recordValuation: false }));
    await dbOf(db).outbox.clear();
    expect(await importStatement(db, WORKSPACE, { assetId: elsewhere, currency: "EUR", balances: january })).toEqual({ ok: false, issues: [{ path: "assetId", key: ASSET_MISSING_KEY, params: {} }] });
    expect(await importStatement(db, WORKSPACE, { assetId: flat, currency: "EUR", balances: january })).toEqual({ ok: false, issues: [{ path: "assetId", key: "validation.import.assetClass", params: {} }] });
    expect(await importStatement(db, WORKSPACE, { assetId, currency: "USD", balances: january })).toEqual({
      ok: false,
      issues: [{ path: "currency", key: "validation.import.currencyMismatch", params: { currency: "USD", expected: "EUR" } }],
    });
    const bad = await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: january, flows: [{ ...rent, startDate: "2025-02-30" }] });
    expect(bad).toMatchObject({ ok: false, issues: [{ path: "flows.0.startDate" }] });
    expect(await db.list("valuations", WORKSPACE)).toEqual([]);
    expect(await db.list("cashFlows", WORKSPACE)).toEqual([]);
    expect(await outboxOf(db)).toEqual([]);
  });

  test("a flow the asset already has (same name, direction and amount) is not added again", async () => {
    const { db } = await openDevice();
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, account, { recordValuation: false }));
    ok(await saveCashFlow(db, WORKSPACE, { ...rent, name: "alquiler piso  calle mayor 12", amount: "850.00", currency: "EUR", frequency: "monthly", assetId }));
    expect(ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: [], flows: [rent] }))).toMatchObject({ flowsCreated: 0, flowsExisting: 1 });
  });
});

describe("a day with more movements than a valuation may list", () => {
  test("is written without its list, and recognised by its value the next time", async () => {
    const { db } = await openDevice();
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, account, { recordValuation: false }));
    const ids = Array.from({ length: 2001 }, (_, i) => i.toString(16).padStart(16, "0"));
    const busy: StatementBalance[] = [{ date: "2025-01-10", amount: "500.25", movementIds: ids }];
    expect(ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: busy }))).toMatchObject({ created: 1 });
    expect((await db.list("valuations", WORKSPACE))[0]?.fields).not.toHaveProperty("statementMovements");
    expect(ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: busy }))).toMatchObject({ created: 0, updated: 0, duplicates: 1 });
  });
});

describe("planBalances", () => {
  test("marks what the preview shows before anything is written", async () => {
    const { db } = await openDevice();
    const { id: assetId } = ok(await createAsset(db, WORKSPACE, account, { recordValuation: false }));
    ok(await importStatement(db, WORKSPACE, { assetId, currency: "EUR", balances: january.slice(0, 2) }));
    const vals = await db.list("valuations", WORKSPACE);
    expect(planBalances(january, vals).map((p) => p.kind)).toEqual(["duplicate", "duplicate", "create", "create"]);
  });
});

describe("CSV mappings", () => {
  test("are kept per institution (case and spaces aside), the newest first", async () => {
    const { db, clock } = await openDevice();
    await saveImportMapping(db, "Bankinter", { dateColumn: 0 });
    clock.advance(1000);
    await saveImportMapping(db, "ING", { dateColumn: 1 });
    await saveImportMapping(db, " bankinter ", { dateColumn: 2 });
    const rows = await readImportMappings(db);
    expect(rows.map((r) => [r.institution, r.mapping])).toEqual([
      ["bankinter", { dateColumn: 2 }],
      ["ING", { dateColumn: 1 }],
    ]);
  });
});
