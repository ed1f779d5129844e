// One user action that writes several records: all of them in one transaction (and so in one sync
// batch: the outbox entries are consecutive and pushed together), or none when any is refused.
import type { CollectionName, Issue } from "@patrimonio/shared-schema";
import { dbOf, toRecord, type ClientDb, type CommandResult, type SyncedRecord } from "../clientdb";
import type { RecordRow } from "../db";

class Refused extends Error {
  constructor(readonly issues: Issue[]) {
    super("refused");
  }
}

/** Runs `fn` in one transaction; `refuse(issues)` inside it rolls everything back and makes the
 * command answer `{ ok: false, issues }`. Other errors propagate (nothing written either). */
export async function atomically<T extends object>(
  db: ClientDb,
  fn: (refuse: (issues: Issue[]) => never) => Promise<T>,
): Promise<CommandResult<T>> {
  const refuse = (issues: Issue[]): never => {
    throw new Refused(issues);
  };
  try {
    const value = await db.batch(() => fn(refuse));
    return { ok: true, ...value };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, issues: err.issues };
    throw err;
  }
}

/** The issues of a nested command, under a path prefix ("valuation", "debts.0"). */
export function prefixed(prefix: string, issues: Issue[]): Issue[] {
  if (prefix === "") return issues;
  return issues.map((i) => ({ ...i, path: i.path === "" ? prefix : `${prefix}.${i.path}` }));
}

/** Unwraps a command result inside `atomically`: refuses (rolls back) with its prefixed issues. */
export function must<T extends object>(result: CommandResult<T>, refuse: (issues: Issue[]) => never, prefix = ""): T {
  if (!result.ok) return refuse(prefixed(prefix, result.issues));
  return result;
}

// Reads for use INSIDE `atomically`: they return Dexie's own promises (no async function in
// between), because awaiting a chain of native async functions inside a Dexie transaction loses it
// (PrematureCommitError). Map the rows with `toRecord` after awaiting.
export function liveRows(db: ClientDb, collection: CollectionName, workspaceId: string): Promise<RecordRow[]> {
  return dbOf(db).records(collection).where("[workspaceId+deleted]").equals([workspaceId, 0]).toArray();
}

export function rowById(db: ClientDb, collection: CollectionName, id: string): Promise<RecordRow | undefined> {
  return dbOf(db).records(collection).get(id);
}

export function recordsOf<C extends CollectionName>(collection: C, rows: RecordRow[]): SyncedRecord<C>[] {
  return rows.map((r) => toRecord(collection, r));
}

export function recordOf<C extends CollectionName>(collection: C, row: RecordRow | undefined): SyncedRecord<C> | undefined {
  return row ? toRecord(collection, row) : undefined;
}

/** The refusal of a record tied to an asset that is missing, deleted or of another workspace. */
export const ASSET_MISSING_KEY = "validation.asset.missing";

export function assetMissing(path = "assetId"): Issue {
  return { path, key: ASSET_MISSING_KEY, params: {} };
}

/** Whether a record's tied asset is a live asset of the workspace. Synchronous on purpose: read the
 * asset inside the transaction with `recordOf("assets", await rowById(db, "assets", id))` first. */
export function isLiveAsset(asset: SyncedRecord<"assets"> | undefined, workspaceId: string): boolean {
  return asset !== undefined && !asset.deleted && asset.workspaceId === workspaceId;
}
