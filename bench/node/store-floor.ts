// The storage floor of offline_10k (bench/README.md): the IndexedDB work alone that devices A and B
// must do for the edits, on the bench's store (fake-indexeddb through Dexie, the device schema),
// with the rows the run itself wrote, and none of the sync: no socket, no decoding, no merge.
//
//   A (storeFloorA, before A goes online): for each push of 500, read the next outbox entries
//     (the push), read their keys and delete them (the ack), then read the records and write
//     them back confirmed (the page that brings them back).
//   B (storeFloorB, after B has them all): write the 10,000 rows as B stored them, 500 per
//     transaction (the pages); then the same rows in the shape a compact record state would
//     store (compactRow), against the rows as stored written again.
//
// Each copies its device's real rows into a fresh database first (not timed) and returns the ms of
// the timed part. These are floors of any design that keeps these rows in this store: the same
// operations, with no work of ours around them.
import type { ClientDb } from "@patrimonio/clientdb";
import { openNodeDevice } from "@patrimonio/clientdb/node";
import type { LocalDb, OutboxRow, RecordRow } from "../../clientdb/src/db";
import { internals } from "../../clientdb/src/internal";

const PUSH = 500;

async function fresh(name: string): Promise<{ handle: ClientDb; db: LocalDb }> {
  const { db: handle } = await openNodeDevice({ name: `${name}-${Date.now()}` });
  return { handle, db: internals(handle).db };
}

async function putAll<T>(db: LocalDb, table: import("dexie").Table<T>, rows: T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += PUSH) {
    await db.transaction("rw", table, () => table.bulkPut(rows.slice(i, i + PUSH)));
  }
}

/** A's floor: its outbox and pending task rows, pushed, acknowledged and confirmed. `outboxMs` is
 * the part of the pushes and acks (the rest confirms the records). */
export async function storeFloorA(device: ClientDb): Promise<{ ms: number; outboxMs: number }> {
  const source = internals(device).db;
  const outbox: OutboxRow[] = await source.outbox.orderBy("mutationId").toArray();
  const rows: RecordRow[] = await source.records("tasks").toArray();
  if (outbox.length === 0 || rows.length === 0) throw new Error("store floor A: the device has no pending edits");
  const { handle, db } = await fresh("floor-a");
  try {
    await putAll(db, db.outbox, outbox);
    await putAll(db, db.records("tasks"), rows);
    const tasks = db.records("tasks");
    const t = performance.now();
    let outboxMs = 0;
    let after = 0;
    for (;;) {
      const o = performance.now();
      // The push: the next outbox entries.
      const push = await db.transaction("r", db.outbox, () => db.outbox.where("mutationId").above(after).limit(PUSH).toArray());
      if (push.length === 0) break;
      const lo = push[0]!.mutationId;
      const hi = push[push.length - 1]!.mutationId;
      after = hi;
      // The ack: which are still there, then they leave.
      await db.transaction("rw", db.outbox, async () => {
        await db.outbox.where(":id").between(lo, hi, true, true).primaryKeys();
        await db.outbox.where(":id").between(lo, hi, true, true).delete();
      });
      outboxMs += performance.now() - o;
      // The page that brings them back: the records read and written back confirmed.
      const ids = push.map((e) => e.recordId).sort();
      await db.transaction("rw", tasks, async () => {
        const got = await tasks.where(":id").between(ids[0]!, ids[ids.length - 1]!, true, true).toArray();
        await tasks.bulkPut(got.map((r) => ({ ...r, local: [] })));
      });
    }
    return { ms: performance.now() - t, outboxMs };
  } finally {
    handle.close();
  }
}

/**
 * A row as a compact record state would store it: when the record was written once (every field's
 * clock one stamp, every author one client, `seen` that stamp alone, no life, late or conflicts),
 * the state names that stamp and author once (`{ fields, stamp, author }`). Other rows are kept
 * as they are. No such shape exists in the engine: this measures what it would save at rest.
 */
function compactRow(row: RecordRow): unknown {
  const { fields, clocks, authors, seen, life, late, conflicts } = row.state;
  const stamps = new Set(Object.values(clocks));
  const by = new Set(Object.values(authors));
  const seenStamps = Object.values(seen);
  const [stamp] = stamps;
  const [author] = by;
  const once = stamps.size === 1 && by.size === 1 && seenStamps.length === 1 && seenStamps[0] === stamp;
  if (!once || life !== undefined || late !== undefined || conflicts.length > 0) return row;
  return { ...row, state: { fields, stamp, author } };
}

async function timedWrite(name: string, rows: unknown[]): Promise<number> {
  const { handle, db } = await fresh(name);
  try {
    const t = performance.now();
    await putAll(db, db.records("tasks") as unknown as import("dexie").Table<unknown>, rows);
    return performance.now() - t;
  } finally {
    handle.close();
  }
}

/** B's floor: its task rows, written as it stored them (`ms`, measured first, as ever). Then,
 * alternately, the same rows in the compact shape and as stored again: `compactMs` and `againMs`
 * are the lower of two writes each; `compacted` counts the rows that took the compact shape. */
export async function storeFloorB(device: ClientDb): Promise<{ ms: number; compactMs: number; againMs: number; compacted: number }> {
  const rows: RecordRow[] = await internals(device).db.records("tasks").toArray();
  if (rows.length === 0) throw new Error("store floor B: the device holds no tasks");
  const compact = rows.map(compactRow);
  const compacted = compact.filter((r, i) => r !== rows[i]).length;
  const ms = await timedWrite("floor-b", rows);
  let compactMs = Infinity;
  let againMs = Infinity;
  for (let i = 0; i < 2; i++) {
    compactMs = Math.min(compactMs, await timedWrite("floor-b-compact", compact));
    againMs = Math.min(againMs, await timedWrite("floor-b-again", rows));
  }
  return { ms, compactMs, againMs, compacted };
}
