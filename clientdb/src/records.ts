// How a record row is derived: the server-confirmed state with the device's own unconfirmed
// mutations re-applied on top, and the shown conflicts projected for the screens. Pure functions
// plus the one transaction helper that writes a row and its conflict projection together.
import type { CollectionName } from "@patrimonio/shared-schema";
import type { IndexableType, Table } from "dexie";
import type { ConflictRow, LocalDb, LocalMutation, RecordRow } from "./db";
import {
  applyMutation,
  emptyRecordState,
  isDeleted,
  shownConflicts,
  type JsonValue,
  type RecordState,
} from "./merge";

/** The confirmed (server) state of a row (an empty state when the server never sent it). */
export function confirmedState(row: RecordRow): RecordState {
  if (row.local.length === 0) return row.state;
  return row.server ?? emptyRecordState();
}

/** Whether the server has ever confirmed anything of this record. */
export function hasConfirmedState(row: RecordRow): boolean {
  return row.local.length === 0 || row.server !== undefined;
}

/** The shown state: `server` with `local` applied in order. A local mutation already contained in
 * `server` is a duplicate for the merge (same node, stamp not newer than seen) and changes nothing. */
export function foldLocal(server: RecordState | undefined, local: readonly LocalMutation[]): RecordState {
  let s = server ?? emptyRecordState();
  for (const l of local) s = applyMutation(s, l.mutation).state;
  return s;
}

/** Builds a row from its confirmed state (undefined = never confirmed) and local mutations. */
export function buildRow(
  base: { id: string; workspaceId: string; epoch: number },
  server: RecordState | undefined,
  local: LocalMutation[],
): RecordRow {
  const state = foldLocal(server, local);
  const row: RecordRow = {
    id: base.id,
    workspaceId: base.workspaceId,
    deleted: isDeleted(state) ? 1 : 0,
    state,
    local,
    epoch: base.epoch,
    conflictCount: shownConflicts(state).length,
  };
  if (local.length > 0 && server !== undefined) row.server = server;
  return row;
}

export function conflictId(collection: string, recordId: string, field: string, stamp: string): string {
  return `${collection}/${recordId}/${field}/${stamp}`;
}

/** The shown conflicts of a row as conflicts-table rows. */
export function conflictRows(collection: CollectionName, row: RecordRow): ConflictRow[] {
  if (row.conflictCount === 0) return [];
  return shownConflicts(row.state).map((c) => ({
    id: conflictId(collection, row.id, c.field, c.stamp),
    workspaceId: row.workspaceId,
    collection,
    recordId: row.id,
    field: c.field,
    value: c.value,
    stamp: c.stamp,
    author: c.author,
    current: Object.hasOwn(row.state.fields, c.field) ? (row.state.fields[c.field] as JsonValue) : null,
  }));
}

/**
 * Writes rows of one collection (inside the caller's transaction) and keeps the conflicts table in
 * step. `before` maps ids to the rows as they were (absent = new); a row whose old and new versions
 * have no shown conflicts does not touch the conflicts table (the cold-sync fast path).
 */
export async function writeRows(
  db: LocalDb,
  collection: CollectionName,
  rows: RecordRow[],
  before: ReadonlyMap<string, RecordRow | undefined>,
  removed: string[] = [],
): Promise<void> {
  if (rows.length > 0) await db.records(collection).bulkPut(rows);
  if (removed.length > 0) await db.records(collection).bulkDelete(removed);
  const touched: string[] = [];
  const added: ConflictRow[] = [];
  for (const row of rows) {
    const old = before.get(row.id);
    if ((old?.conflictCount ?? 0) === 0 && row.conflictCount === 0) continue;
    touched.push(row.id);
    added.push(...conflictRows(collection, row));
  }
  for (const id of removed) if ((before.get(id)?.conflictCount ?? 0) > 0) touched.push(id);
  if (touched.length > 0) {
    await db.conflicts
      .where("[collection+recordId]")
      .anyOf(touched.map((id) => [collection, id]))
      .delete();
  }
  if (added.length > 0) await db.conflicts.bulkPut(added);
}

/**
 * Reads rows by primary key, as `table.bulkGet(keys)` does (same order, undefined for absent
 * ones), inside the caller's transaction. IndexedDB answers a `get` per key; pages and pushes
 * touch keys that are usually neighbours (snapshot pages come in id order, uuidv7 ids and
 * mutation ids grow with time), so one `getAll` over the keys' range is tried first: when that
 * range holds at most a few rows more than asked for, its result is exact; otherwise (keys spread
 * over a large table) the per-key reads follow. `inRange` receives every row of the range when
 * the range was read whole (undefined otherwise), for callers that need to know the range's rows.
 */
export async function getByKeys<T, K extends string | number>(
  table: Table<T, K>,
  keys: readonly K[],
  keyOf: (row: T) => K,
  inRange?: (rows: T[] | undefined) => void,
): Promise<(T | undefined)[]> {
  if (keys.length === 0) {
    inRange?.([]);
    return [];
  }
  let lo = keys[0] as K;
  let hi = lo;
  for (const k of keys) {
    if (k < lo) lo = k;
    if (k > hi) hi = k;
  }
  const limit = keys.length + 32;
  const rows = (await table
    .where(":id")
    .between(lo as IndexableType, hi as IndexableType, true, true)
    .limit(limit)
    .toArray()) as T[];
  if (rows.length >= limit) {
    inRange?.(undefined);
    return table.bulkGet(keys as K[]);
  }
  inRange?.(rows);
  const byKey = new Map<K, T>();
  for (const r of rows) byKey.set(keyOf(r), r);
  return keys.map((k) => byKey.get(k));
}

/** The fields of a state as a record shows them: cleared (null) fields are absent. */
export function visibleFields(state: RecordState): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(state.fields)) if (v !== null) out[k] = v;
  return out;
}
