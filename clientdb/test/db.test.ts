// The device schema: one table per synced collection of the registry, and upgrades that keep data.
import { COLLECTION_NAMES } from "@patrimonio/shared-schema";
import { IDBKeyRange } from "fake-indexeddb";
import { describe, expect, test } from "vitest";
import { applyPage, applyRejects } from "../src/apply";
import { DB_VERSIONS, LocalDb, RECORD_INDEXES, type DbVersion, type OutboxRow } from "../src/db";
import { uuidv7 } from "../src/ids";
import { internals } from "../src/internal";
import { WORKSPACE, asset, openDevice, task } from "./support";

async function dump(db: LocalDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const t of db.tables) out[t.name] = await t.toArray();
  return out;
}

describe("device schema", () => {
  test("the latest version has a table for every synced collection of the shared registry", () => {
    const latest = DB_VERSIONS[DB_VERSIONS.length - 1]!;
    expect([...latest.collections].sort()).toEqual([...COLLECTION_NAMES].sort());
  });

  test("versions only go up", () => {
    DB_VERSIONS.forEach((v, i) => {
      if (i > 0) expect(v.version).toBeGreaterThan(DB_VERSIONS[i - 1]!.version);
    });
  });

  test("an upgrade keeps every table's data and runs its data step once", async () => {
    // A device on the current version with data in every kind of table.
    const d = await openDevice();
    const a = await d.db.create("assets", WORKSPACE, asset());
    const t = await d.db.create("tasks", WORKSPACE, task());
    if (!a.ok || !t.ok) throw new Error("create failed");
    await d.db.update("tasks", t.id, { status: "done" });
    const id = uuidv7(0);
    await applyPage(internals(d.db), {
      workspaceId: WORKSPACE,
      changes: [
        { seq: 1, collection: "tasks", recordId: id, kind: "mutation", mutationId: 1, mutation: { op: "put", stamp: "2025-03-01T09:00:00.000Z-0000-aaaaaaaaaaaaaaaa", author: "a", fields: { title: "x", status: "todo" }, base: {} } },
        { seq: 2, collection: "tasks", recordId: id, kind: "mutation", mutationId: 1, mutation: { op: "put", stamp: "2025-03-01T09:00:01.000Z-0000-bbbbbbbbbbbbbbbb", author: "b", fields: { title: "y" }, base: {} } },
      ],
      cursor: 2,
      hasMore: false,
      snapshot: false,
    });
    await applyRejects(internals(d.db), [{ mutationId: 1, code: "forbidden", issues: [] }]);
    d.db.close();

    const v1 = new LocalDb(d.name, { indexedDB: d.factory, IDBKeyRange });
    const before = await dump(v1);
    v1.close();
    expect(before.conflicts).toHaveLength(1);
    expect(before.rejected).toHaveLength(1);
    expect(before.outbox).toHaveLength(2);

    // A later version: a new synced collection, a new outbox index, and a data step.
    const last = DB_VERSIONS[DB_VERSIONS.length - 1]!;
    const next: DbVersion = {
      version: last.version + 1,
      collections: [...last.collections, "notes"],
      local: { ...last.local, outbox: "mutationId, workspaceId, [collection+recordId]" },
      upgrade: async (tx) => {
        await tx.table<OutboxRow & { upgraded?: number }>("outbox").toCollection().modify((row) => {
          row.upgraded = (row.upgraded ?? 0) + 1;
        });
      },
    };
    const v2 = new LocalDb(d.name, { indexedDB: d.factory, IDBKeyRange }, [...DB_VERSIONS, next]);
    await v2.open();
    expect(v2.verno).toBe(next.version);
    const after = await dump(v2);
    for (const [name, rows] of Object.entries(before)) {
      if (name === "outbox") continue;
      expect(after[name], name).toEqual(rows);
    }
    expect(after.outbox).toEqual((before.outbox as OutboxRow[]).map((r) => ({ ...r, upgraded: 1 })));
    expect(after.notes).toEqual([]);
    expect(v2.table("notes").schema.primKey.name).toBe("id");
    expect(RECORD_INDEXES.startsWith("id")).toBe(true);
    // The new index works on the old rows.
    expect(await v2.outbox.where("[collection+recordId]").equals(["tasks", t.id]).count()).toBe(2);
    v2.close();

    // Opened again at the same version: nothing runs twice.
    const again = new LocalDb(d.name, { indexedDB: d.factory, IDBKeyRange }, [...DB_VERSIONS, next]);
    expect(((await again.outbox.toArray()) as (OutboxRow & { upgraded: number })[]).map((r) => r.upgraded)).toEqual([1, 1]);
    again.close();
  });
});

describe("opening the device database", () => {
  test("an upgrade blocked by another connection says so (onBlocked) and opens once that one closes", async () => {
    const { IDBFactory } = await import("fake-indexeddb");
    const { ClientDb } = await import("../src/clientdb");
    const factory = new IDBFactory();
    // A tab of an older app: a connection at an old version that does not give way on versionchange.
    const old = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open("blocked-upgrade", 1);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    let blocked = 0;
    let settled = false;
    let onBlocked!: () => void;
    const blockedNow = new Promise<void>((resolve) => (onBlocked = resolve));
    const opening = ClientDb.open({ name: "blocked-upgrade", indexedDB: factory, IDBKeyRange, onBlocked: () => (blocked++, onBlocked()) });
    void opening.finally(() => (settled = true));
    await blockedNow;
    expect(blocked).toBe(1);
    expect(settled).toBe(false);
    old.close();
    const db = await opening;
    expect(db.closed).toBeUndefined();
    db.close();
  });
});
