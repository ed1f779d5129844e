// Reading record and conflict rows into what screens see, without importing Dexie: the live hooks
// (features/hooks.ts, features/liveList.ts) use these, and they are part of a signed-in page's first
// load, which paints before the device database's engine (and Dexie) has loaded (pwa
// sync/engineContext.ts). ESLint keeps Dexie out of this module.
import type { CollectionName } from "@patrimonio/shared-schema";
import type { ClientDb, ConflictView, EntityOf, RejectedView, SyncedRecord } from "./clientdb";
import type { ConflictRow, LocalDb, RecordRow, RejectedRow } from "./db";
import { internals } from "./internal";
import { isDeleted, unseenByDelete } from "./merge";
import { visibleFields } from "./records";

export function toRecord<C extends CollectionName>(collection: C, row: RecordRow): SyncedRecord<C> {
  const clocks = { ...row.state.clocks };
  if (row.state.life) clocks.deleted = row.state.life.stamp;
  let pending = 0;
  let rejected = 0;
  for (const l of row.local) {
    if (l.status === "rejected") rejected++;
    else pending++;
  }
  return {
    collection,
    id: row.id,
    workspaceId: row.workspaceId,
    fields: visibleFields(row.state) as EntityOf<C>,
    clocks,
    deleted: isDeleted(row.state),
    unseenByDelete: unseenByDelete(row.state),
    pending,
    rejected,
    conflicts: row.conflictCount,
  };
}

export function toConflict(row: ConflictRow): ConflictView {
  return {
    id: row.id,
    collection: row.collection,
    recordId: row.recordId,
    workspaceId: row.workspaceId,
    field: row.field,
    value: row.value,
    current: row.current,
    author: row.author,
    stamp: row.stamp,
    at: Date.parse(row.stamp.slice(0, 24)),
  };
}

export function toRejected(row: RejectedRow): RejectedView {
  const out: RejectedView = {
    mutationId: row.mutationId,
    collection: row.collection,
    recordId: row.recordId,
    workspaceId: row.workspaceId,
    op: row.mutation.op,
    created: row.mutation.op === "put" && Object.keys(row.mutation.base ?? {}).length === 0,
    code: row.code,
    issues: row.issues,
    rejectedAt: row.rejectedAt,
  };
  if (row.mutation.fields) out.fields = row.mutation.fields;
  return out;
}

export async function listRows(db: LocalDb, collection: CollectionName, workspaceId: string, includeDeleted: boolean): Promise<RecordRow[]> {
  const index = db.records(collection).where("[workspaceId+deleted]");
  const rows = includeDeleted
    ? await index.between([workspaceId, 0], [workspaceId, 1], true, true).toArray()
    : await index.equals([workspaceId, 0]).toArray();
  return rows;
}

/** The Dexie database behind a handle (this package's engine and hooks only). */
export function dbOf(handle: ClientDb): LocalDb {
  return internals(handle).db;
}
