// What the sync engine writes when the server speaks: a page of changes (one transaction per page,
// merged with the same rules as the server), acknowledgements, rejections and resyncs. Each
// function is one Dexie transaction, which first checks that the database is still the device's
// the caller opened (LocalDb.assertOwn): otherwise it writes nothing and the handle closes.
import { COLLECTION_NAMES, type CollectionName, type WireIssue } from "@patrimonio/shared-schema";
import { cursorKey, type ClockMeta, type CursorMeta, type LocalDb, type LocalMutation, type OutboxRow, type RecordRow } from "./db";
import type { Internals } from "./internal";
import { Clock, stampNode } from "./hlc";
import { applyMutation, emptyRecordState, type Mutation, type RecordState } from "./merge";
import { buildRow, confirmedState, getByKeys, hasConfirmedState, writeRows } from "./records";

/** One change of a server page, decoded: either a mutation to merge in server order, or a whole
 * record state (snapshot pages) that replaces the confirmed state. */
export type ServerChange =
  | { seq: number; collection: CollectionName; recordId: string; kind: "mutation"; mutationId: number; mutation: Mutation }
  | { seq: number; collection: CollectionName; recordId: string; kind: "state"; state: RecordState };

export interface ServerPage {
  workspaceId: string;
  changes: ServerChange[];
  /** The cursor after this page. */
  cursor: number;
  hasMore: boolean;
  /** Part of a snapshot (first sync or resync): full record states. */
  snapshot: boolean;
  /** Snapshot pages: what the server needs to resume after this page. */
  resume?: string;
}

export interface Ack {
  mutationId: number;
  /** Workspace sequence number it was committed at (0: a duplicate whose change is no longer kept). */
  seq: number;
  /** The effective stamp (the server's, when it re-stamped a clock far ahead). */
  stamp?: string;
}

export interface Reject {
  mutationId: number;
  code: string;
  issues: WireIssue[];
}

/** A changes page that does not continue from the device's cursor (a page was lost or came out of
 * order): nothing of it is applied; the connection must start again from the stored cursor. */
export class GapError extends Error {
  readonly code = "gap";
  constructor(workspaceId: string, expected: number, got: number) {
    super(`Workspace ${workspaceId}: expected change ${expected}, got ${got}.`);
    this.name = "GapError";
  }
}

export interface PageResult {
  /** Changes merged (changes at or below the stored cursor are skipped: a replayed page). */
  applied: number;
  /** The workspace is caught up after this page. */
  caughtUp: boolean;
  /** A snapshot finished with this page. */
  snapshotDone: boolean;
}

const rowId = (r: RecordRow) => r.id;
const outboxId = (o: OutboxRow) => o.mutationId;

function newCursor(workspaceId: string): CursorMeta {
  return { key: cursorKey(workspaceId), workspaceId, seq: 0, epoch: 0, caughtUp: false, held: false };
}

/**
 * The cursor the hello sends for a workspace (sync/PROTOCOL.md, "hello"): the last seq applied
 * when the device holds the workspace (0 included: an empty snapshot applied), null when it holds
 * nothing yet or a snapshot is in progress (the server then sends a snapshot, or continues it
 * with the resume token). Rows written before protocol 3 have no `held`: a completed snapshot
 * left them caught up with no snapshot in progress, and any later page a seq above 0.
 */
export function heldCursor(c: CursorMeta | undefined): number | null {
  if (c === undefined || c.snapshot !== undefined) return null;
  const held = c.held ?? (c.seq > 0 || c.caughtUp);
  return held ? c.seq : null;
}

async function readCursor(db: LocalDb, workspaceId: string): Promise<CursorMeta> {
  return ((await db.meta.get(cursorKey(workspaceId))) as CursorMeta | undefined) ?? newCursor(workspaceId);
}

function stampsOf(change: ServerChange): string[] {
  if (change.kind === "mutation") return [change.mutation.stamp];
  const out = Object.values(change.state.clocks);
  if (change.state.life) out.push(change.state.life.stamp);
  return out;
}

/** Makes the device clock later than every stamp received (sync/CLOCK.md, rule 3). */
export async function observe(dev: Internals, newest: string | undefined): Promise<void> {
  const { db, node, now } = dev;
  if (newest === undefined) return;
  const meta = (await db.meta.get("clock")) as ClockMeta;
  if (newest <= meta.last) return;
  const clock = new Clock({ node, now, last: meta.last });
  clock.observe(newest);
  await db.meta.put({ ...meta, last: clock.last() });
}

/** Whether the confirmed state contains a mutation of this device: the server applied it, or a
 * later one of the same clock node, which it applied after it (pushes apply in order). Only
 * meaningful for a mutation the server acknowledged (a rejected one is never applied). The rare
 * exception: ids decided out of order (MERGE.md, rule 7) put the later one first, so the earlier,
 * acknowledged, is taken as contained a few changes early and is not shown until its `late` change
 * arrives (in the same page or a next one: its ack came after its commit). */
export function confirms(server: RecordState | undefined, m: Mutation): boolean {
  const seen = server?.seen[stampNode(m.stamp)];
  return seen !== undefined && seen >= m.stamp;
}

/**
 * The local mutations still needed on top of a new confirmed state: not the device's own
 * mutations this page carried back (`own`), nor acknowledged ones (no longer in the outbox) that
 * the state contains (e.g. a snapshot). Rejected ones stay until fixed or discarded.
 */
function stillLocal(local: LocalMutation[], server: RecordState | undefined, own: ReadonlySet<number>, unacked: ReadonlySet<number>): LocalMutation[] {
  return local.filter((l) => {
    if (l.status === "rejected") return true;
    if (own.has(l.mutationId)) return false;
    return unacked.has(l.mutationId) || !confirms(server, l.mutation);
  });
}

/**
 * Applies one page of server changes atomically: merges every change into the confirmed states
 * (in server order), re-applies the device's own unconfirmed mutations on top, drops the ones the
 * page confirms, updates the conflict projection, observes the stamps and stores the cursor — all
 * in one transaction, so a page is either entirely applied or not at all.
 */
export function applyPage(dev: Internals, page: ServerPage): Promise<PageResult> {
  const { db, now } = dev;
  return db.transaction("rw", db.syncTables(), async () => {
    await db.assertOwn(dev.clientId);
    const cursor = await readCursor(db, page.workspaceId);
    const byCollection = new Map<CollectionName, ServerChange[]>();
    let newest: string | undefined;
    let applied = 0;
    let expected = cursor.seq + 1;
    for (const change of page.changes) {
      if (!page.snapshot) {
        // A replayed page (after a reconnect) brings changes already applied: skip them.
        if (change.seq < expected) continue;
        // Changes come without gaps; one missing means a lost page: apply nothing.
        if (change.seq > expected) throw new GapError(page.workspaceId, expected, change.seq);
        expected++;
      }
      let list = byCollection.get(change.collection);
      if (!list) byCollection.set(change.collection, (list = []));
      list.push(change);
      for (const s of stampsOf(change)) if (newest === undefined || s > newest) newest = s;
      applied++;
    }
    if (!page.snapshot && page.cursor > expected - 1) throw new GapError(page.workspaceId, expected, page.cursor);
    const nextSeq = page.snapshot && page.hasMore ? cursor.seq : Math.max(cursor.seq, page.cursor);

    for (const [collection, changes] of byCollection) {
      const table = db.records(collection);
      const ids = [...new Set(changes.map((c) => c.recordId))];
      const found = await getByKeys(table, ids, rowId);
      const before = new Map<string, RecordRow | undefined>();
      const work = new Map<string, { workspaceId: string; server: RecordState | undefined; local: LocalMutation[]; own: Set<number> }>();
      ids.forEach((id, i) => {
        const row = found[i];
        before.set(id, row);
        work.set(id, {
          workspaceId: row?.workspaceId ?? page.workspaceId,
          server: row && hasConfirmedState(row) ? confirmedState(row) : undefined,
          local: row?.local ?? [],
          own: new Set(),
        });
      });
      // Which of the touched records' local mutations still wait for their ack.
      const localIds = [...work.values()].flatMap((w) => w.local.map((l) => l.mutationId));
      const unacked = new Set(
        localIds.length === 0 ? [] : (await getByKeys(db.outbox, localIds, outboxId)).filter((o) => o !== undefined).map((o) => o.mutationId),
      );
      for (const change of changes) {
        const w = work.get(change.recordId)!;
        if (w.workspaceId !== page.workspaceId) {
          // A record id is unique; a page may not move a record to another workspace.
          throw new Error(`The server sent record ${change.recordId} for workspace ${page.workspaceId}, but it belongs to ${w.workspaceId}.`);
        }
        if (change.kind === "state") {
          w.server = change.state;
        } else {
          w.server = applyMutation(w.server ?? emptyRecordState(), change.mutation).state;
          // The device's own mutation, as the server applied it: no longer needed on top.
          if (change.mutation.author === dev.clientId) w.own.add(change.mutationId);
        }
      }
      const rows: RecordRow[] = [];
      for (const [id, w] of work) {
        rows.push(buildRow({ id, workspaceId: w.workspaceId, epoch: cursor.epoch }, w.server, stillLocal(w.local, w.server, w.own, unacked)));
      }
      await writeRows(db, collection, rows, before);
    }

    await observe(dev, newest);

    // A snapshot's last page makes the workspace held (at its cursor, 0 included); a changes page
    // only ever follows a held cursor.
    const held = page.snapshot ? !page.hasMore : heldCursor(cursor) !== null;
    const next: CursorMeta = { ...cursor, seq: nextSeq, caughtUp: !page.hasMore, held };
    let snapshotDone = false;
    if (page.snapshot) {
      const progress = cursor.snapshot ?? { received: 0, startedAt: now() };
      if (page.hasMore) {
        next.snapshot = { ...progress, received: progress.received + page.changes.length };
        if (page.resume !== undefined) next.snapshot.resume = page.resume;
      } else {
        delete next.snapshot;
        snapshotDone = true;
        await dropUnconfirmed(db, page.workspaceId, cursor.epoch);
      }
    }
    await db.meta.put(next);
    return { applied, caughtUp: next.caughtUp, snapshotDone };
  });
}

/** After a resync's snapshot: rows of the workspace the new snapshot did not confirm (older
 * epoch) no longer exist on the server. Rows without local mutations go; rows with some keep only
 * them (a record created offline that the server never had). */
async function dropUnconfirmed(db: LocalDb, workspaceId: string, epoch: number): Promise<void> {
  if (epoch === 0) return;
  for (const collection of COLLECTION_NAMES) {
    const rows = await db.records(collection).where("[workspaceId+deleted]").between([workspaceId, 0], [workspaceId, 1], true, true).toArray();
    const stale = rows.filter((r) => r.epoch < epoch);
    if (stale.length === 0) continue;
    const before = new Map(stale.map((r) => [r.id, r] as const));
    const keep = stale.filter((r) => r.local.length > 0).map((r) => buildRow({ ...r, epoch }, undefined, r.local));
    const removed = stale.filter((r) => r.local.length === 0).map((r) => r.id);
    await writeRows(db, collection, keep, before, removed);
  }
}

/** Removes answered outbox entries. `range` is every outbox row between the smallest and the
 * greatest answered id when it was read whole: when it holds nothing else (the usual case, a
 * whole push answered), one range delete does instead of a delete per entry. */
async function deleteOutbox(db: LocalDb, entries: OutboxRow[], range: readonly unknown[] | undefined): Promise<void> {
  const ids = [...new Set(entries.map((e) => e.mutationId))];
  if (range !== undefined && ids.length > 1 && range.length === ids.length) {
    // The entries ⊆ range (both read in this transaction), as many distinct ones: the same rows.
    let lo = ids[0]!;
    let hi = lo;
    for (const id of ids) {
      if (id < lo) lo = id;
      if (id > hi) hi = id;
    }
    await db.outbox.where(":id").between(lo, hi, true, true).delete();
    return;
  }
  await db.outbox.bulkDelete(ids);
}

/**
 * The outbox entries of these mutation ids still in the outbox (inside the caller's transaction),
 * and (`inRange`) the outbox's keys or rows between the smallest and the greatest id when read
 * whole. `pushed` holds the rows the sync client read and pushed: outbox rows never change once
 * written, so when it has every id only the keys are read (to know which are still there), not
 * the rows.
 */
async function outboxEntries(
  db: LocalDb,
  ids: readonly number[],
  pushed: ReadonlyMap<number, OutboxRow> | undefined,
  inRange: (r: readonly unknown[] | undefined) => void,
): Promise<OutboxRow[]> {
  if (pushed === undefined || ids.length === 0 || !ids.every((id) => pushed.has(id))) {
    return (await getByKeys(db.outbox, ids, outboxId, inRange)).filter((e) => e !== undefined);
  }
  let lo = ids[0]!;
  let hi = lo;
  for (const id of ids) {
    if (id < lo) lo = id;
    if (id > hi) hi = id;
  }
  const limit = ids.length + 32;
  const keys = await db.outbox.where(":id").between(lo, hi, true, true).limit(limit).primaryKeys();
  if (keys.length >= limit) {
    // A sparse range: ask for each key.
    inRange(undefined);
    const present = await db.outbox.bulkGet([...ids]);
    return present.filter((e) => e !== undefined);
  }
  inRange(keys);
  const present = new Set(keys);
  return ids.filter((id) => present.has(id)).map((id) => pushed.get(id)!);
}

/** Rows of the given outbox entries, grouped per collection, for the ack/reject transactions. */
async function rowsOf(db: LocalDb, entries: { collection: CollectionName; recordId: string }[]) {
  const out = new Map<CollectionName, Map<string, RecordRow>>();
  for (const e of entries) if (!out.has(e.collection)) out.set(e.collection, new Map());
  for (const [collection, rows] of out) {
    const ids = [...new Set(entries.filter((e) => e.collection === collection).map((e) => e.recordId))];
    const found = await getByKeys(db.records(collection), ids, rowId);
    found.forEach((r) => r && rows.set(r.id, r));
  }
  return out;
}

async function rewrite(db: LocalDb, original: Map<CollectionName, Map<string, RecordRow>>, changed: Map<CollectionName, Map<string, LocalMutation[]>>) {
  for (const [collection, locals] of changed) {
    const rows: RecordRow[] = [];
    const before = new Map<string, RecordRow | undefined>();
    for (const [id, local] of locals) {
      const row = original.get(collection)?.get(id);
      if (!row) continue;
      before.set(id, row);
      rows.push(buildRow(row, hasConfirmedState(row) ? confirmedState(row) : undefined, local));
    }
    await writeRows(db, collection, rows, before);
  }
}

/**
 * Acknowledgements: the mutations leave the outbox. Their records keep them on top of the
 * confirmed state until the page that carries them back arrives (so a record never flickers back
 * to its old value); one the confirmed state already contains (its page came first, or a
 * duplicate of a mutation applied long ago) leaves the record now. A re-stamped mutation takes the
 * server's stamp (sync/CLOCK.md).
 */
export function applyAcks(dev: Internals, acks: Ack[], pushed?: ReadonlyMap<number, OutboxRow>): Promise<number> {
  const { db } = dev;
  return db.transaction("rw", db.syncTables(), async () => {
    await db.assertOwn(dev.clientId);
    let range: readonly unknown[] | undefined;
    const entries = await outboxEntries(db, acks.map((a) => a.mutationId), pushed, (r) => (range = r));
    if (entries.length === 0) return 0;
    const ackOf = new Map(acks.map((a) => [a.mutationId, a]));
    // A record row needs reading only when the ack may change it: a re-stamp, or a confirmed
    // state that may already contain the mutation. It cannot while the ack's seq is above the
    // workspace's held cursor (no snapshot in progress): the change at that seq is still to come
    // as a page, which drops the mutation from the row (the page's own mutations leave it). The
    // usual ack of a live push is such one: its 500 record rows are then not read at all.
    const cursors = new Map<string, CursorMeta>();
    for (const w of new Set(entries.map((e) => e.workspaceId))) cursors.set(w, await readCursor(db, w));
    const needed = entries.filter((e) => {
      const ack = ackOf.get(e.mutationId)!;
      if (ack.stamp !== undefined && ack.stamp !== e.mutation.stamp) return true;
      const c = cursors.get(e.workspaceId)!;
      return ack.seq === 0 || heldCursor(c) === null || ack.seq <= c.seq;
    });
    const rows = await rowsOf(db, needed);
    const changed = new Map<CollectionName, Map<string, LocalMutation[]>>();
    for (const e of entries) {
      const row = rows.get(e.collection)?.get(e.recordId);
      if (!row) continue;
      const ack = ackOf.get(e.mutationId)!;
      const local = changed.get(e.collection)?.get(e.recordId) ?? row.local;
      const server = hasConfirmedState(row) ? confirmedState(row) : undefined;
      let touched = false;
      const next: LocalMutation[] = [];
      for (const l of local) {
        if (l.mutationId !== e.mutationId) {
          next.push(l);
          continue;
        }
        const stamp = ack.stamp ?? l.mutation.stamp;
        const adopted = stamp === l.mutation.stamp ? l : { ...l, mutation: { ...l.mutation, stamp } };
        touched = adopted !== l;
        if (confirms(server, adopted.mutation)) touched = true;
        else next.push(adopted);
      }
      if (!touched) continue;
      let perCollection = changed.get(e.collection);
      if (!perCollection) changed.set(e.collection, (perCollection = new Map()));
      perCollection.set(e.recordId, next);
    }
    await deleteOutbox(db, entries, range);
    let newest: string | undefined;
    for (const a of acks) if (a.stamp !== undefined && (newest === undefined || a.stamp > newest)) newest = a.stamp;
    await observe(dev, newest);
    await rewrite(db, rows, changed);
    return entries.length;
  });
}

/** Rejections: the mutations leave the outbox for the rejected list; the records keep showing
 * them (marked rejected) until the user fixes or discards them. */
export function applyRejects(dev: Internals, rejects: Reject[]): Promise<number> {
  const { db, now } = dev;
  return db.transaction("rw", db.syncTables(), async () => {
    await db.assertOwn(dev.clientId);
    const entries = (await db.outbox.bulkGet(rejects.map((r) => r.mutationId))).filter((e) => e !== undefined);
    if (entries.length === 0) return 0;
    const byId = new Map(rejects.map((r) => [r.mutationId, r]));
    const rows = await rowsOf(db, entries);
    const changed = new Map<CollectionName, Map<string, LocalMutation[]>>();
    for (const e of entries) {
      const r = byId.get(e.mutationId)!;
      await db.rejected.put({
        mutationId: e.mutationId,
        workspaceId: e.workspaceId,
        collection: e.collection,
        recordId: e.recordId,
        mutation: e.mutation,
        code: r.code,
        issues: r.issues,
        rejectedAt: now(),
      });
      const row = rows.get(e.collection)?.get(e.recordId);
      if (!row) continue;
      let perCollection = changed.get(e.collection);
      if (!perCollection) changed.set(e.collection, (perCollection = new Map()));
      const local = perCollection.get(e.recordId) ?? row.local;
      perCollection.set(
        e.recordId,
        local.map((l) => (l.mutationId === e.mutationId ? { ...l, status: "rejected" as const } : l)),
      );
    }
    await db.outbox.bulkDelete(entries.map((e) => e.mutationId));
    await rewrite(db, rows, changed);
    return entries.length;
  });
}

/**
 * The server can no longer serve this workspace from the device's cursor: start a new snapshot.
 * Nothing is deleted now (the screens keep showing the records and the outbox is untouched); the
 * snapshot replaces the confirmed states page by page and, when it completes, drops the rows it
 * did not confirm (see dropUnconfirmed).
 */
export function startResync(dev: Internals, workspaceId: string): Promise<void> {
  const { db, now } = dev;
  return db.transaction("rw", db.meta, async () => {
    await db.assertOwn(dev.clientId);
    const cursor = await readCursor(db, workspaceId);
    await db.meta.put({
      ...cursor,
      seq: 0,
      held: false,
      epoch: cursor.epoch + 1,
      caughtUp: false,
      snapshot: { received: 0, startedAt: now() },
    });
  });
}

/**
 * The user may not read this workspace (any more): everything of it leaves the device — records,
 * conflicts, rejected and pending mutations (the server would refuse them) and the cursor.
 */
export function forgetWorkspace(dev: Internals, workspaceId: string): Promise<void> {
  const { db } = dev;
  return db.transaction("rw", db.syncTables(), async () => {
    await db.assertOwn(dev.clientId);
    for (const collection of COLLECTION_NAMES) {
      await db.records(collection).where("[workspaceId+deleted]").between([workspaceId, 0], [workspaceId, 1], true, true).delete();
    }
    await db.conflicts.where("workspaceId").equals(workspaceId).delete();
    await db.rejected.where("workspaceId").equals(workspaceId).delete();
    await db.outbox.where("workspaceId").equals(workspaceId).delete();
    await db.meta.delete(cursorKey(workspaceId));
  });
}

/** Every workspace cursor the device has. */
export async function readCursors(db: LocalDb): Promise<CursorMeta[]> {
  return (await db.meta.where("key").startsWith("cursor:").toArray()) as CursorMeta[];
}

export { readCursor };
