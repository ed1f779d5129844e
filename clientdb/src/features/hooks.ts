// Live queries that tell LOADING from NONE: undefined until the query for the CURRENT database and
// workspace has answered. (A live query keeps the previous result while new deps load, so a plain
// one would show the [] it gave before the database opened, or another workspace's rows, for the
// time of the first query.) No Dexie import here or in what this imports: these hooks are part of a
// signed-in page's first load (rows.ts says why).
import type { CollectionName } from "@patrimonio/shared-schema";
import { useCallback, useSyncExternalStore } from "react";
import type { ClientDb, ConflictView, RejectedView, SyncedRecord } from "../clientdb";
import { useClientDb } from "../context";
import { useLive } from "../live";
import { dbOf, listRows, toConflict, toRecord, toRejected } from "../rows";
import { liveRecordList } from "./liveList";

export interface Tagged<T> {
  handle: ClientDb;
  key: string;
  value: T;
}

export function current<T>(result: Tagged<T> | null | undefined, handle: ClientDb | null, key: string): T | undefined {
  if (!result || handle === null || result.handle !== handle || result.key !== key) return undefined;
  return result.value;
}

/**
 * The records of a workspace (not deleted), live; undefined while loading (no database yet, no
 * workspace yet, or the first read for this database and workspace has not answered). Incremental
 * (liveList.ts): after the first read only the records a write touched are read again, and
 * unchanged records keep their objects. Subscribers of the same list share one reader.
 */
export function useWorkspaceRecords<C extends CollectionName>(collection: C, workspaceId: string | undefined): SyncedRecord<C>[] | undefined {
  const handle = useClientDb();
  const list = handle !== null && workspaceId !== undefined ? liveRecordList(handle, collection, workspaceId) : null;
  const subscribe = useCallback((onChange: () => void) => (list ? list.subscribe(onChange) : () => {}), [list]);
  const snapshot = useCallback(() => list?.snapshot(), [list]);
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/**
 * The records of a workspace (not deleted) whose `field` equals `value`, live; undefined while
 * loading. Filters the stored rows before building records (cheap on large workspaces), e.g. the
 * valuations of one asset: useRecordsWhere("valuations", ws, "assetId", assetId).
 */
export function useRecordsWhere<C extends CollectionName>(
  collection: C,
  workspaceId: string | undefined,
  field: string,
  value: string | number | boolean | undefined,
): SyncedRecord<C>[] | undefined {
  const handle = useClientDb();
  const key = `${collection}\u0000${workspaceId ?? ""}\u0000${field}\u0000${String(value)}`;
  const result = useLive(handle, async (): Promise<Tagged<SyncedRecord<C>[]> | null> => {
    if (!handle || workspaceId === undefined) return null;
    if (value === undefined) return { handle, key, value: [] };
    const rows = await listRows(dbOf(handle), collection, workspaceId, false);
    return { handle, key, value: rows.filter((r) => r.state.fields[field] === value).map((r) => toRecord(collection, r)) };
  }, [handle, key]);
  return current(result, handle, key);
}

/** The deleted records (tombstones) of a workspace's collection, live; undefined while loading. For
 * what must not stay deleted (a vault key deleted before the server refused it). */
export function useDeletedRecords<C extends CollectionName>(collection: C, workspaceId: string | undefined): SyncedRecord<C>[] | undefined {
  const handle = useClientDb();
  const key = `${collection}\u0000${workspaceId ?? ""}\u0000deleted`;
  const result = useLive(handle, async (): Promise<Tagged<SyncedRecord<C>[]> | null> => {
    if (!handle || workspaceId === undefined) return null;
    const rows = await listRows(dbOf(handle), collection, workspaceId, true);
    return { handle, key, value: rows.map((r) => toRecord(collection, r)).filter((r) => r.deleted) };
  }, [handle, key]);
  return current(result, handle, key);
}

/** One record, live: null when this device has no such record, undefined while loading. */
export function useRecordById<C extends CollectionName>(collection: C, id: string | undefined): SyncedRecord<C> | null | undefined {
  const handle = useClientDb();
  const key = `${collection}\u0000${id ?? ""}`;
  const result = useLive(handle, async (): Promise<Tagged<SyncedRecord<C> | null> | null> => {
    if (!handle || id === undefined) return null;
    const row = await dbOf(handle).records(collection).get(id);
    return { handle, key, value: row ? toRecord(collection, row) : null };
  }, [handle, key]);
  if (id === undefined && handle !== null) return null;
  return current(result, handle, key);
}

/** The shown conflicts of a workspace (of one record when recordId is given), live; undefined while loading. */
export function useWorkspaceConflicts(workspaceId: string | undefined, recordId?: string): ConflictView[] | undefined {
  const handle = useClientDb();
  const key = `${workspaceId ?? ""}\u0000${recordId ?? ""}`;
  const result = useLive(handle, async (): Promise<Tagged<ConflictView[]> | null> => {
    if (!handle || workspaceId === undefined) return null;
    const rows = await dbOf(handle).conflicts.where("workspaceId").equals(workspaceId).toArray();
    return { handle, key, value: rows.filter((r) => recordId === undefined || r.recordId === recordId).map(toConflict) };
  }, [handle, key]);
  return current(result, handle, key);
}

/** The changes of a workspace the server refused (oldest first), live; undefined while loading. */
export function useWorkspaceRejected(workspaceId: string | undefined): RejectedView[] | undefined {
  const handle = useClientDb();
  const key = workspaceId ?? "";
  const result = useLive(handle, async (): Promise<Tagged<RejectedView[]> | null> => {
    if (!handle || workspaceId === undefined) return null;
    const rows = await dbOf(handle).rejected.where("workspaceId").equals(workspaceId).toArray();
    return { handle, key, value: rows.map(toRejected) };
  }, [handle, key]);
  return current(result, handle, key);
}
