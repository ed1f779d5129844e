import { describe, expect, test } from "vitest";
import { dbOf } from "../src/clientdb";
import type { ClockMeta, OutboxRow } from "../src/db";
import { WORKSPACE, asset, openDevice, task } from "./support";

async function outbox(device: Awaited<ReturnType<typeof openDevice>>): Promise<OutboxRow[]> {
  return dbOf(device.db).outbox.orderBy("mutationId").toArray();
}

async function clockMeta(device: Awaited<ReturnType<typeof openDevice>>): Promise<ClockMeta> {
  return (await dbOf(device.db).meta.get("clock")) as ClockMeta;
}

describe("commands", () => {
  test("a create writes the record and its outbox entry", async () => {
    const d = await openDevice();
    const r = await d.db.create("assets", WORKSPACE, asset());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const rec = await d.db.get("assets", r.id);
    expect(rec?.fields).toEqual(asset());
    expect(rec?.workspaceId).toBe(WORKSPACE);
    expect(rec?.pending).toBe(1);
    expect(rec?.deleted).toBe(false);

    const out = await outbox(d);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ mutationId: 1, workspaceId: WORKSPACE, collection: "assets", recordId: r.id });
    expect(out[0]!.mutation).toMatchObject({ op: "put", author: d.db.clientId, fields: asset(), base: {} });
    expect(rec?.clocks.name).toBe(out[0]!.mutation.stamp);
  });

  test("a failing validation writes nothing and returns the issues with message keys", async () => {
    const d = await openDevice();
    const before = await clockMeta(d);
    const r = await d.db.create("assets", WORKSPACE, asset({ participation: "60", otherOwners: [{ name: "Ana", percentage: "50" }] }));
    expect(r).toEqual({ ok: false, issues: [{ path: "participation", key: "validation.percent.sumExceeds", params: {} }] });
    expect(await outbox(d)).toHaveLength(0);
    expect(await d.db.list("assets", WORKSPACE, { includeDeleted: true })).toHaveLength(0);
    expect(await clockMeta(d)).toEqual(before);

    const created = await d.db.create("tasks", WORKSPACE, task());
    if (!created.ok) throw new Error("create failed");
    const bad = await d.db.update("tasks", created.id, { title: "" });
    expect(bad).toEqual({ ok: false, issues: [{ path: "title", key: "validation.required", params: {} }] });
    expect((await d.db.get("tasks", created.id))?.fields.title).toBe(task().title);
    expect(await outbox(d)).toHaveLength(1);
  });

  test("the record and its outbox entry are written together or not at all", async () => {
    const d = await openDevice();
    const db = dbOf(d.db);
    // Make the record write fail after the outbox entry was added in the same transaction.
    const failing = () => {
      throw new Error("disk full");
    };
    db.records("tasks").hook("creating", failing);
    await expect(d.db.create("tasks", WORKSPACE, task())).rejects.toThrow("disk full");
    db.records("tasks").hook("creating").unsubscribe(failing);
    expect(await outbox(d)).toHaveLength(0);
    expect((await clockMeta(d)).nextMutationId).toBe(1);

    const r = await d.db.create("tasks", WORKSPACE, task());
    expect(r.ok).toBe(true);
    expect((await outbox(d)).map((o) => o.mutationId)).toEqual([1]);
  });

  test("an update writes only the fields that change, on top of the clocks it saw", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task({ notes: "a" }));
    if (!r.ok) throw new Error("create failed");
    const created = await d.db.get("tasks", r.id);
    d.clock.advance(1000);
    expect(await d.db.update("tasks", r.id, { title: task().title, status: "done", notes: null })).toEqual({ ok: true });
    const out = await outbox(d);
    expect(out).toHaveLength(2);
    expect(out[1]!.mutation.fields).toEqual({ status: "done", notes: null });
    expect(out[1]!.mutation.base).toEqual(
      Object.fromEntries(Object.entries(created!.clocks).filter(([k]) => k !== "deleted")),
    );
    expect(out[1]!.mutation.stamp > out[0]!.mutation.stamp).toBe(true);
    const rec = await d.db.get("tasks", r.id);
    expect(rec?.fields).toEqual({ title: task().title, status: "done" });
    expect(rec?.pending).toBe(2);

    // Nothing changes: no mutation.
    expect(await d.db.update("tasks", r.id, { status: "done" })).toEqual({ ok: true });
    expect(await outbox(d)).toHaveLength(2);
  });

  test("delete and restore are tombstone mutations and keep the values", async () => {
    const d = await openDevice();
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    await d.db.delete("tasks", r.id);
    expect(await d.db.list("tasks", WORKSPACE)).toHaveLength(0);
    const deleted = await d.db.get("tasks", r.id);
    expect(deleted?.deleted).toBe(true);
    expect(deleted?.fields).toEqual(task());
    // Deleting again changes nothing.
    await d.db.delete("tasks", r.id);
    await d.db.restore("tasks", r.id);
    expect((await d.db.list("tasks", WORKSPACE)).map((t) => t.id)).toEqual([r.id]);
    expect((await outbox(d)).map((o) => o.mutation.op)).toEqual(["put", "delete", "restore"]);
  });

  test("unknown records are errors, not silent no-ops", async () => {
    const d = await openDevice();
    await expect(d.db.update("tasks", "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f", { status: "done" })).rejects.toMatchObject({ code: "not_found" });
    await expect(d.db.dismissConflict("tasks/01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f/title/x")).rejects.toMatchObject({ code: "not_found" });
    await expect(d.db.discardRejected(7)).rejects.toMatchObject({ code: "not_found" });
  });

  test("a batch writes many commands in one transaction", async () => {
    const d = await openDevice();
    const ids = await d.db.batch(async () => {
      const out: string[] = [];
      for (let i = 0; i < 50; i++) {
        const r = await d.db.create("tasks", WORKSPACE, task({ title: `T${i}` }));
        if (r.ok) out.push(r.id);
      }
      return out;
    });
    expect(ids).toHaveLength(50);
    expect((await outbox(d)).map((o) => o.mutationId)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    // A batch that throws leaves nothing behind.
    await expect(
      d.db.batch(async () => {
        await d.db.create("tasks", WORKSPACE, task({ title: "lost" }));
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(await outbox(d)).toHaveLength(50);
  });
});

describe("durability", () => {
  test("the outbox, the records, the client id and the clock survive a reload", async () => {
    const d = await openDevice();
    const clientId = d.db.clientId;
    const r = await d.db.create("tasks", WORKSPACE, task());
    if (!r.ok) throw new Error("create failed");
    await d.db.update("tasks", r.id, { status: "in_progress" });
    const outBefore = await outbox(d);
    const last = (await clockMeta(d)).last;

    await d.reopen();
    expect(d.db.clientId).toBe(clientId);
    expect(await outbox(d)).toEqual(outBefore);
    expect((await d.db.get("tasks", r.id))?.fields.status).toBe("in_progress");

    // The wall clock went back an hour across the reload: stamps still move forward.
    d.clock.advance(-3600_000);
    await d.db.update("tasks", r.id, { status: "done" });
    const out = await outbox(d);
    expect(out).toHaveLength(3);
    expect(out[2]!.mutationId).toBe(3);
    expect(out[2]!.mutation.stamp > last).toBe(true);
  });

  test("two handles on one database never issue the same stamp or mutation id", async () => {
    const a = await openDevice();
    const b = await openDevice({ factory: a.factory, name: a.name, clock: a.clock });
    expect(b.db.clientId).toBe(a.db.clientId);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a.db : b.db).create("tasks", WORKSPACE, task({ title: `T${i}` }))),
    );
    const out = await outbox(a);
    expect(new Set(out.map((o) => o.mutation.stamp)).size).toBe(20);
    expect(out.map((o) => o.mutationId)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
