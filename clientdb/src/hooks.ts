// Live-query hooks for screens (dexie-react-hooks): they re-render whenever the data they read
// changes, in any tab. Screens get the device database from <ClientDbProvider>.
import type { CollectionName } from "@patrimonio/shared-schema";
import { useLiveQuery } from "dexie-react-hooks";
import { heldCursor, readCursors } from "./apply";
import { dbOf, listRows, toConflict, toRecord, toRejected, type ConflictView, type RejectedView, type SyncedRecord } from "./clientdb";
import { useClientDb } from "./context";
import { cursorKey, type CursorMeta, type LinkMeta, type LocalDb } from "./db";
import { computeStatus, type SyncStatus } from "./status";

export { ClientDbProvider, useClientDb } from "./context";

/** Reads the status inputs from the database (one snapshot, for every tab). */
export async function statusOf(db: LocalDb): Promise<SyncStatus> {
  const [link, pending, rejected, conflicts, cursors] = await Promise.all([
    db.meta.get("link") as Promise<LinkMeta | undefined>,
    db.outbox.count(),
    db.rejected.count(),
    db.conflicts.count(),
    readCursors(db),
  ]);
  return computeStatus({ link, pending, rejected, conflicts, cursors });
}

/** The records of a workspace (not deleted ones unless asked), live; undefined while loading. */
export function useRecords<C extends CollectionName>(
  collection: C,
  workspaceId: string | undefined,
  options: { includeDeleted?: boolean } = {},
): SyncedRecord<C>[] | undefined {
  const handle = useClientDb();
  const includeDeleted = options.includeDeleted ?? false;
  return useLiveQuery(
    async () => {
      if (!handle || workspaceId === undefined) return [];
      const rows = await listRows(dbOf(handle), collection, workspaceId, includeDeleted);
      return rows.map((r) => toRecord(collection, r));
    },
    [handle, collection, workspaceId, includeDeleted],
  );
}

/** One record, live; null when it does not exist, undefined while loading. */
export function useRecord<C extends CollectionName>(collection: C, id: string | undefined): SyncedRecord<C> | null | undefined {
  const handle = useClientDb();
  return useLiveQuery(
    async () => {
      if (!handle || id === undefined) return null;
      const row = await dbOf(handle).records(collection).get(id);
      return row ? toRecord(collection, row) : null;
    },
    [handle, collection, id],
  );
}

/** Shown conflicts (of one workspace, or of one record when `recordId` is given), live. */
export function useConflicts(workspaceId: string | undefined, recordId?: string): ConflictView[] | undefined {
  const handle = useClientDb();
  return useLiveQuery(
    async () => {
      if (!handle || workspaceId === undefined) return [];
      const rows = await dbOf(handle).conflicts.where("workspaceId").equals(workspaceId).toArray();
      return rows.filter((r) => recordId === undefined || r.recordId === recordId).map(toConflict);
    },
    [handle, workspaceId, recordId],
  );
}

/** Mutations the server refused (of one workspace), live. */
export function useRejected(workspaceId: string | undefined): RejectedView[] | undefined {
  const handle = useClientDb();
  return useLiveQuery(
    async () => {
      if (!handle || workspaceId === undefined) return [];
      return (await dbOf(handle).rejected.where("workspaceId").equals(workspaceId).toArray()).map(toRejected);
    },
    [handle, workspaceId],
  );
}

/** The sync status (synced, syncing, offline, counts, last synced at), live; undefined while
 * loading or signed out. */
export function useSyncStatus(): SyncStatus | undefined {
  const handle = useClientDb();
  return useLiveQuery(async () => (handle ? statusOf(dbOf(handle)) : undefined), [handle]);
}

/**
 * Whether this device holds the workspace: its first sync has been applied whole, so what the device
 * lists of it is the server's as of its cursor, not the part of a first sync that has arrived so far
 * (a new phone, or one that has never been online). Live; undefined while loading; false while
 * signed out.
 */
export function useWorkspaceHeld(workspaceId: string | undefined): boolean | undefined {
  const handle = useClientDb();
  return useLiveQuery(async () => {
    if (!handle || workspaceId === undefined) return false;
    const cursor = (await dbOf(handle).meta.get(cursorKey(workspaceId))) as CursorMeta | undefined;
    return heldCursor(cursor) !== null;
  }, [handle, workspaceId]);
}
