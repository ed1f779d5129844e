// Task commands against a real Dexie database (fake-indexeddb, as clientdb's own tests).
import { describe, expect, test } from "vitest";
import { dbOf } from "../clientdb";
import { OTHER_WORKSPACE, WORKSPACE, asset, openDevice, task } from "../../test/support";
import { createAsset, deleteAsset } from "./assets";
import { createTask, deleteTask, setTaskStatus, updateTask } from "./tasks";

describe("task commands", () => {
  test("create, edit, change the status, clear optional fields and delete, each one outbox entry", async () => {
    const { db } = await openDevice();
    const flat = await createAsset(db, WORKSPACE, asset({ name: "Piso en Cádiz" }), { recordValuation: false });
    if (!flat.ok) throw new Error(JSON.stringify(flat.issues));
    const created = await createTask(db, WORKSPACE, task({ dueDate: "2026-01-31", priority: "high", assetId: flat.id, notes: "Llamar al banco" }));
    if (!created.ok) throw new Error(JSON.stringify(created.issues));
    expect((await db.get("tasks", created.id))?.fields).toEqual({
      title: "Renovar el seguro del coche",
      status: "todo",
      dueDate: "2026-01-31",
      priority: "high",
      assetId: flat.id,
      notes: "Llamar al banco",
    });
    expect(await updateTask(db, created.id, { title: "Renovar el seguro del hogar", notes: null, priority: null })).toEqual({ ok: true });
    expect(await setTaskStatus(db, created.id, "done")).toEqual({ ok: true });
    expect((await db.get("tasks", created.id))?.fields).toEqual({
      title: "Renovar el seguro del hogar",
      status: "done",
      dueDate: "2026-01-31",
      assetId: flat.id,
    });
    expect(await deleteTask(db, created.id)).toEqual({ ok: true });
    expect((await db.get("tasks", created.id))?.deleted).toBe(true);
    const out = await dbOf(db).outbox.orderBy("mutationId").toArray();
    expect(out.filter((o) => o.collection === "tasks").map((o) => o.mutation.op)).toEqual(["put", "put", "put", "delete"]);
  });

  test("the shared schema refuses an empty or too long title and a bad status, with its keys; nothing is written", async () => {
    const { db } = await openDevice();
    expect(await createTask(db, WORKSPACE, task({ title: "" }))).toEqual({ ok: false, issues: [{ path: "title", key: "validation.required", params: {} }] });
    const long = await createTask(db, WORKSPACE, task({ title: "x".repeat(141) }));
    expect(long).toEqual({ ok: false, issues: [{ path: "title", key: "validation.string.max", params: { max: 140 } }] });
    const ok = await createTask(db, WORKSPACE, task());
    if (!ok.ok) throw new Error("refused");
    const bad = await updateTask(db, ok.id, { status: "later" as never });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues[0]?.path).toBe("status");
    expect(await updateTask(db, ok.id, { title: "" })).toEqual({ ok: false, issues: [{ path: "title", key: "validation.required", params: {} }] });
    expect((await db.get("tasks", ok.id))?.fields.title).toBe("Renovar el seguro del coche");
    expect(await dbOf(db).outbox.count()).toBe(1);
  });

  test("a linked asset must be a live asset of the same workspace", async () => {
    const { db } = await openDevice();
    const mine = await createAsset(db, WORKSPACE, asset(), { recordValuation: false });
    const foreign = await createAsset(db, OTHER_WORKSPACE, asset(), { recordValuation: false });
    if (!mine.ok || !foreign.ok) throw new Error("refused");
    const missing = { ok: false, issues: [{ path: "assetId", key: "validation.asset.missing", params: {} }] };
    expect(await createTask(db, WORKSPACE, task({ assetId: foreign.id }))).toEqual(missing);
    const t = await createTask(db, WORKSPACE, task({ assetId: mine.id }));
    if (!t.ok) throw new Error("refused");
    expect(await updateTask(db, t.id, { assetId: foreign.id })).toEqual(missing);
    // Deleting the asset keeps the task, untied.
    await deleteAsset(db, mine.id);
    expect((await db.get("tasks", t.id))?.fields.assetId).toBeUndefined();
    expect(await createTask(db, WORKSPACE, task({ assetId: mine.id }))).toEqual(missing);
    expect(await deleteTask(db, "0190a0b0-0000-7000-8000-000000000000")).toEqual({ ok: false, issues: [{ path: "", key: "validation.notFound", params: {} }] });
  });
});
