// How a record row is derived: the server-confirmed state with the device's own unconfirmed
// mutations re-applied on top, and the shown conflicts projected for the screens. Pure functions
// plus the one transaction helper that writes a row and its conflict projection together.
import type { CollectionName } from "@patrimonio/shared-schema";
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

/** The fields of a state as a record shows them: cleared (null) fields are absent. */
export function visibleFields(state: RecordState): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(state.fields)) if (v !== null) out[k] = v;
  return out;
}
