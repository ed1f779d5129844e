// The device database handle: typed commands per collection (the only writers of local records
// and the outbox) and the reads that hooks and tests use. Every command validates against the
// shared schema and writes the record and its outbox entry in ONE Dexie transaction.
import { COLLECTION_NAMES, type COLLECTIONS, type CollectionName, type Issue, type WireIssue } from "@patrimonio/shared-schema";
import Dexie from "dexie";
import type * as z from "zod";
import {
  LocalDb,
  cursorKey,
  type ClockMeta,
  type CursorMeta,
  type DbOptions,
  type DeviceMeta,
  type GoneReason,
  type LinkMeta,
  type LocalMutation,
  type RecordRow,
} from "./db";
import { Clock, newNodeId } from "./hlc";
import { uuidv4, uuidv7 } from "./ids";
import { register, type LiveSource } from "./internal";
import {
  equalValues,
  isDeleted,
  type Conflict,
  type ConflictKey,
  type JsonValue,
  type Mutation,
  type RecordState,
} from "./merge";
import { buildRow, confirmedState, conflictId, visibleFields, writeRows } from "./records";

// The reads the live hooks share with the handle live in rows.ts (no Dexie import there).
export { dbOf, listRows, toConflict, toRecord, toRejected } from "./rows";
import { listRows, toConflict, toRecord, toRejected } from "./rows";

// ---------------------------------------------------------------- public types

/** The entity a collection holds (its fields, without the sync envelope). */
export type EntityOf<C extends CollectionName> = z.infer<(typeof COLLECTIONS)[C]["schema"]>;

/** A partial update: a value sets a field, null clears it (only optional fields may be cleared;
 * clearing a required one fails validation like any invalid value). */
export type Patch<C extends CollectionName> = { [K in keyof EntityOf<C>]?: EntityOf<C>[K] | null };

/** A record as screens see it. */
export interface SyncedRecord<C extends CollectionName = CollectionName> {
  collection: C;
  id: string;
  workspaceId: string;
  /** The shown values. Two valid concurrent edits can merge into a record that breaks a
   * cross-field rule (sync/MERGE.md); `validateRecord` tells. */
  fields: EntityOf<C>;
  /** Stamp of each field's shown value (`deleted`: the life register's stamp when there is one). */
  clocks: Record<string, string>;
  deleted: boolean;
  /** Fields whose current value the deleter did not see ("deleted while you were editing it"). */
  unseenByDelete: string[];
  /** This device's mutations the server has not confirmed yet (pending or acknowledged). */
  pending: number;
  /** This device's mutations the server refused (still shown until fixed or discarded). */
  rejected: number;
  /** Shown conflicts (losing values the user can restore or dismiss). */
  conflicts: number;
}

/** A shown conflict: a concurrent write of `field` that lost, kept so the user can restore it. */
export interface ConflictView {
  id: string;
  collection: CollectionName;
  recordId: string;
  workspaceId: string;
  field: string;
  /** The losing value (null: the loser cleared the field). */
  value: JsonValue;
  /** The winning value shown now (null: cleared). */
  current: JsonValue;
  /** Client id of the device that made the losing write. */
  author: string;
  stamp: string;
  /** When the losing write was made (ms, from its stamp). */
  at: number;
}

/** A mutation the server refused. */
export interface RejectedView {
  mutationId: number;
  collection: CollectionName;
  recordId: string;
  workspaceId: string;
  op: Mutation["op"];
  /** A put made on nothing the server had confirmed (the record's creation): `fields` are all of it. */
  created: boolean;
  fields?: Record<string, JsonValue>;
  /** invalid, forbidden, not_found, conflict, too_large */
  code: string;
  /** Validation issues with message keys (and the server's message in the connection language). */
  issues: WireIssue[];
  rejectedAt: number;
}

/** The server's and the device's refusal to delete a wrapped vault key (shared-schema messages). */
export const VAULT_KEY_KEPT = "sync.reject.vaultKeyKept";

export type CommandResult<T extends object = object> = ({ ok: true } & T) | { ok: false; issues: Issue[] };

/** An impossible command (unknown record, conflict or rejected mutation). Validation failures are
 * not errors: commands return them as `{ ok: false, issues }`. */
export class ClientDbError extends Error {
  constructor(
    readonly code: "not_found" | "invalid",
    message: string,
  ) {
    super(message);
    this.name = "ClientDbError";
  }
}

export interface OpenOptions extends DbOptions {
  /** IndexedDB database name (one per signed-in user and server is a good choice). */
  name: string;
  /** Wall clock in ms (Date.now by default; scripted in tests). */
  now?: () => number;
  /** Called when the open waits for another connection (a tab of an older version of the app that
   * holds the database) to close before it can upgrade: the open stays pending until then. */
  onBlocked?: () => void;
}

// ---------------------------------------------------------------- helpers

function own<V>(o: Record<string, V>, k: string): V | undefined {
  return Object.hasOwn(o, k) ? o[k] : undefined;
}

function notFound(what: string): ClientDbError {
  return new ClientDbError("not_found", `${what} does not exist on this device.`);
}

// The record schemas (zod, about 30 KB gzip) load with the first write, not with the first read:
// a screen that only shows records (the dashboard) never downloads them. batch() waits for them
// before it opens its transaction (an import cannot be awaited inside one).
type Validation = typeof import("./validation");
let validation: Validation | undefined;
let loadingValidation: Promise<Validation> | undefined;

/** Loads the record schemas once; every command waits for it before it writes. The command
 * modules (features/*.ts) also import them, so a screen that writes has them as soon as it is
 * open and can save offline, service worker or not. */
export function loadValidation(): Promise<Validation> {
  loadingValidation ??= import("./validation").then((m) => (validation = m));
  return loadingValidation;
}

function validateLoaded<C extends CollectionName>(collection: C, fields: unknown): CommandResult<{ value: EntityOf<C> }> {
  if (!validation) throw new ClientDbError("invalid", "The record schemas are not loaded (a command ran outside batch()).");
  return validation.validateRecord(collection, fields);
}

/** What the device saw of each field when making a new mutation on `row` (sent as `base`): the
 * shown clocks, except that a value that only exists in a rejected mutation (the server never
 * had it) counts as what that mutation was made on top of. */
export function baseFor(row: RecordRow): Record<string, string> {
  const base = { ...row.state.clocks };
  for (const l of row.local) {
    if (l.status !== "rejected") continue;
    for (const f of Object.keys(l.mutation.fields ?? {})) {
      if (own(row.state.clocks, f) !== l.mutation.stamp) continue;
      const under = l.mutation.base === undefined ? undefined : own(l.mutation.base, f);
      if (under === undefined) delete base[f];
      else base[f] = under;
    }
  }
  return base;
}




// ---------------------------------------------------------------- the handle

/**
 * One device database. Open it with `ClientDb.open`; write only through its commands; read
 * through the hooks (or `get`/`list`/... outside React). A `SyncClient` keeps it in sync.
 */
/** Dexie's live queries and change signal, for the Dexie-free hook modules (internal.ts). */
const DEXIE_LIVE: LiveSource = {
  query(querier, next, error) {
    return Dexie.liveQuery(querier).subscribe({ next, error });
  },
  onMutated(listener) {
    Dexie.on("storagemutated", listener);
    return () => Dexie.on("storagemutated").unsubscribe(listener);
  },
};

export class ClientDb {
  /** Stable id of this device database (the `clientId` of the sync protocol). */
  readonly clientId: string;
  readonly name: string;
  readonly #db: LocalDb;
  readonly #node: string;
  readonly #now: () => number;

  private constructor(db: LocalDb, device: DeviceMeta, now: () => number) {
    this.#db = db;
    this.clientId = device.clientId;
    this.name = db.name;
    this.#node = device.node;
    this.#now = now;
    // A reopen (Dexie reopens after an upgrade elsewhere) must find this same device's database.
    db.own(device.clientId);
    register(this, { db, clientId: device.clientId, node: device.node, now, live: DEXIE_LIVE });
  }

  /** Opens (creating or upgrading) the device database. */
  static async open(options: OpenOptions): Promise<ClientDb> {
    const now = options.now ?? Date.now;
    const db = new LocalDb(options.name, options);
    const onBlocked = options.onBlocked;
    if (onBlocked) db.on("blocked", () => onBlocked());
    await db.open();
    const device = await db.transaction("rw", db.meta, async () => {
      const found = (await db.meta.get("device")) as DeviceMeta | undefined;
      if (found) return found;
      const made: DeviceMeta = { key: "device", clientId: uuidv4(), node: newNodeId(), createdAt: now() };
      const clock = new Clock({ node: made.node, now });
      await db.meta.bulkPut([made, { key: "clock", last: clock.last(), nextMutationId: 1 } satisfies ClockMeta]);
      return made;
    });
    return new ClientDb(db, device, now);
  }

  /** Why this handle closed for good, or undefined while it is usable: "closed" (close() or
   * destroy()), "deleted" (the database was deleted, e.g. by a sign-out in another tab), "lost"
   * (the browser closed the connection) or "replaced" (another device's database is under the
   * name now). A handle never reopens by itself: open a new one. */
  get closed(): GoneReason | undefined {
    return this.#db.gone;
  }

  /** Calls `listener` once when this handle closes for good (see `closed`); returns the
   * unsubscribe. */
  onClosed(listener: (reason: GoneReason) => void): () => void {
    return this.#db.onGone(listener);
  }

  /** Closes this handle's connection for good (the data stays; open a new handle to use it
   * again). A sync client of this handle stops. */
  close(): void {
    this.#db.close();
  }

  /** Deletes the whole device database (sign-out wipes the device). The handle is unusable after. */
  async destroy(): Promise<void> {
    this.#db.close();
    await this.#db.delete();
  }

  // ------------------------------------------------------------ commands

  /**
   * Runs several commands in one transaction: all of them are written, or (if `fn` throws) none.
   * Much faster than separate commands for bulk edits (one IndexedDB transaction).
   */
  batch<T>(fn: () => Promise<T>): Promise<T> {
    // Inside an outer batch the schemas are loaded already, and the transaction is joined at once.
    if (validation) return this.#db.transaction("rw", this.#db.syncTables(), fn);
    return loadValidation().then(() => this.#db.transaction("rw", this.#db.syncTables(), fn));
  }

  /** Creates a record; returns its new id (UUIDv7), or the validation issues (nothing written). */
  create<C extends CollectionName>(collection: C, workspaceId: string, fields: EntityOf<C>): Promise<CommandResult<{ id: string }>> {
    return this.#write(collection, async () => {
      const checked = validateLoaded(collection, fields);
      if (!checked.ok) return checked;
      const id = uuidv7(this.#now());
      const values: Record<string, JsonValue> = {};
      for (const [f, v] of Object.entries(checked.value as Record<string, JsonValue | undefined>)) if (v !== undefined) values[f] = v;
      const issued = await this.#issue();
      const mutation: Mutation = { op: "put", stamp: issued.stamp, author: this.clientId, fields: values, base: {} };
      await this.#commit(collection, workspaceId, id, undefined, [], { mutationId: issued.mutationId, mutation, status: "pending" });
      return { ok: true, id };
    });
  }

  /**
   * Updates fields of a record (null clears an optional field). Only fields whose value changes
   * are written. A record with rejected field writes carries them into this edit (the fix):
   * they are sent again with it and leave the rejected list.
   */
  update<C extends CollectionName>(collection: C, id: string, patch: Patch<C>): Promise<CommandResult> {
    return this.#write(collection, async () => {
      const row = await this.#row(collection, id);
      const shown = row.state.fields;
      const next: Record<string, JsonValue> = { ...shown };
      const changed: Record<string, JsonValue> = {};
      for (const [f, raw] of Object.entries(patch as Record<string, JsonValue | undefined>)) {
        if (raw === undefined) continue;
        const v = raw as JsonValue;
        if (equalValues(v, own(shown, f) ?? null)) continue;
        next[f] = v;
        changed[f] = v;
      }
      const carried = row.local.filter((l) => l.status === "rejected" && l.mutation.op === "put");
      for (const l of carried) {
        for (const f of Object.keys(l.mutation.fields ?? {})) if (!Object.hasOwn(changed, f)) changed[f] = own(next, f) ?? null;
      }
      if (Object.keys(changed).length === 0) return { ok: true };
      const checked = validateLoaded(collection, visibleFields({ ...row.state, fields: next }));
      if (!checked.ok) return checked;
      const base = baseFor(row);
      const issued = await this.#issue();
      const mutation: Mutation = { op: "put", stamp: issued.stamp, author: this.clientId, fields: changed, base };
      const keep = row.local.filter((l) => !carried.includes(l));
      if (carried.length > 0) await this.#db.rejected.bulkDelete(carried.map((l) => l.mutationId));
      await this.#commit(collection, row.workspaceId, id, row, keep, { mutationId: issued.mutationId, mutation, status: "pending" });
      return { ok: true };
    });
  }

  /** Deletes a record (a tombstone: its values stay under it and come back with a restore). */
  delete(collection: CollectionName, id: string): Promise<CommandResult> {
    return this.#life(collection, id, "delete");
  }

  /** Restores a deleted record with the latest value of every field. */
  restore(collection: CollectionName, id: string): Promise<CommandResult> {
    return this.#life(collection, id, "restore");
  }

  /** Writes a conflict's losing value back (and closes the conflict everywhere). */
  restoreConflict(id: string): Promise<CommandResult> {
    const { collection, recordId } = parseConflictId(id);
    return this.#write(collection, async () => {
      const row = await this.#row(collection, recordId);
      return this.#restoreLost(collection, row, [this.#conflict(collection, row, id)]);
    });
  }

  /** Keeps the current value and closes the conflict everywhere. */
  dismissConflict(id: string): Promise<CommandResult> {
    const { collection, recordId } = parseConflictId(id);
    return this.#write(collection, async () => {
      const row = await this.#row(collection, recordId);
      return this.#dismissLost(collection, row, [this.#conflict(collection, row, id)]);
    });
  }

  /** Writes back every value one losing mutation left as conflicts (its fields share `stamp`), in
   * one mutation, and closes them: for fields that only make sense together (a wrapped vault key
   * and the parameters it was wrapped with), which restoring one by one would mix. Conflicts whose
   * value equals the current one (not shown) are written and closed too. */
  restoreWrite(collection: CollectionName, recordId: string, stamp: string): Promise<CommandResult> {
    return this.#write(collection, async () => {
      const row = await this.#row(collection, recordId);
      return this.#restoreLost(collection, row, this.#conflictsOfWrite(row, stamp));
    });
  }

  /** Keeps the current values and closes every conflict one losing mutation (`stamp`) left. */
  dismissWrite(collection: CollectionName, recordId: string, stamp: string): Promise<CommandResult> {
    return this.#write(collection, async () => {
      const row = await this.#row(collection, recordId);
      return this.#dismissLost(collection, row, this.#conflictsOfWrite(row, stamp));
    });
  }

  #conflictsOfWrite(row: RecordRow, stamp: string): Conflict[] {
    const found = row.state.conflicts.filter((c) => c.stamp === stamp);
    if (found.length === 0) throw notFound(`Conflicts ${row.id}@${stamp}`);
    return found;
  }

  async #restoreLost(collection: CollectionName, row: RecordRow, lost: Conflict[]): Promise<CommandResult> {
    const fields: Record<string, JsonValue> = {};
    for (const c of lost) fields[c.field] = c.value;
    const checked = validateLoaded(collection, visibleFields({ ...row.state, fields: { ...row.state.fields, ...fields } }));
    if (!checked.ok) return checked;
    const issued = await this.#issue();
    const mutation: Mutation = {
      op: "put",
      stamp: issued.stamp,
      author: this.clientId,
      fields,
      base: baseFor(row),
      resolves: lost.map((c) => ({ field: c.field, stamp: c.stamp })),
    };
    await this.#commit(collection, row.workspaceId, row.id, row, row.local, { mutationId: issued.mutationId, mutation, status: "pending" });
    return { ok: true };
  }

  async #dismissLost(collection: CollectionName, row: RecordRow, lost: Conflict[]): Promise<CommandResult> {
    const issued = await this.#issue();
    const resolves: ConflictKey[] = lost.map((c) => ({ field: c.field, stamp: c.stamp }));
    const mutation: Mutation = { op: "resolve", stamp: issued.stamp, author: this.clientId, base: baseFor(row), resolves };
    await this.#commit(collection, row.workspaceId, row.id, row, row.local, { mutationId: issued.mutationId, mutation, status: "pending" });
    return { ok: true };
  }

  /** Drops a rejected mutation: the record shows the server's value again (a rejected create
   * that the server never had disappears). */
  discardRejected(mutationId: number): Promise<CommandResult> {
    return this.batch(async () => {
      const rej = await this.#db.rejected.get(mutationId);
      if (!rej) throw notFound(`Rejected mutation ${mutationId}`);
      const row = await this.#row(rej.collection, rej.recordId);
      await this.#db.rejected.delete(mutationId);
      const keep = row.local.filter((l) => l.mutationId !== mutationId);
      await this.#rewrite(rej.collection, row, keep);
      return { ok: true } as CommandResult;
    });
  }

  /** Sends a rejected mutation again, as a new mutation made now (e.g. after a role change). */
  retryRejected(mutationId: number): Promise<CommandResult> {
    return this.batch(async () => {
      const rej = await this.#db.rejected.get(mutationId);
      if (!rej) throw notFound(`Rejected mutation ${mutationId}`);
      const row = await this.#row(rej.collection, rej.recordId);
      const keep = row.local.filter((l) => l.mutationId !== mutationId);
      if (rej.mutation.op === "put" || rej.mutation.op === "restore") {
        const checked = validateLoaded(rej.collection, visibleFields(row.state));
        if (!checked.ok) return checked;
      }
      const issued = await this.#issue();
      const mutation: Mutation = { ...rej.mutation, stamp: issued.stamp, author: this.clientId, base: baseFor(row) };
      if (mutation.op === "delete" || mutation.op === "restore" || mutation.op === "resolve") delete mutation.fields;
      await this.#db.rejected.delete(mutationId);
      await this.#commit(rej.collection, row.workspaceId, row.id, row, keep, { mutationId: issued.mutationId, mutation, status: "pending" });
      return { ok: true } as CommandResult;
    });
  }

  // ------------------------------------------------------------ reads

  async get<C extends CollectionName>(collection: C, id: string): Promise<SyncedRecord<C> | undefined> {
    const row = await this.#db.records(collection).get(id);
    return row ? toRecord(collection, row) : undefined;
  }

  /** Records of a workspace in creation order (deleted ones only with `includeDeleted`). */
  async list<C extends CollectionName>(collection: C, workspaceId: string, options: { includeDeleted?: boolean } = {}): Promise<SyncedRecord<C>[]> {
    return (await listRows(this.#db, collection, workspaceId, options.includeDeleted ?? false)).map((r) => toRecord(collection, r));
  }

  async conflicts(workspaceId?: string): Promise<ConflictView[]> {
    const rows = workspaceId === undefined ? await this.#db.conflicts.toArray() : await this.#db.conflicts.where("workspaceId").equals(workspaceId).toArray();
    return rows.map(toConflict);
  }

  async rejected(workspaceId?: string): Promise<RejectedView[]> {
    const rows = workspaceId === undefined ? await this.#db.rejected.toArray() : await this.#db.rejected.where("workspaceId").equals(workspaceId).toArray();
    return rows.map(toRejected);
  }

  /** Mutations waiting to be pushed. */
  pendingCount(): Promise<number> {
    return this.#db.outbox.count();
  }

  /** The last applied sequence number of a workspace (0: nothing yet). */
  async cursor(workspaceId: string): Promise<number> {
    const c = (await this.#db.meta.get(cursorKey(workspaceId))) as CursorMeta | undefined;
    return c?.seq ?? 0;
  }

  /** The confirmed (server) merge state of a record, for tests and diagnostics. */
  async confirmed(collection: CollectionName, id: string): Promise<RecordState | undefined> {
    const row = await this.#db.records(collection).get(id);
    return row ? confirmedState(row) : undefined;
  }

  /** The link state the leader tab last wrote (for status). */
  async link(): Promise<LinkMeta | undefined> {
    return (await this.#db.meta.get("link")) as LinkMeta | undefined;
  }

  // ------------------------------------------------------------ internals

  #write<T>(collection: CollectionName, fn: () => Promise<T>): Promise<T> {
    if (!(COLLECTION_NAMES as readonly string[]).includes(collection)) {
      return Promise.reject(new ClientDbError("invalid", `Unknown collection ${JSON.stringify(collection)}.`));
    }
    return this.batch(fn);
  }

  async #row(collection: CollectionName, id: string): Promise<RecordRow> {
    const row = await this.#db.records(collection).get(id);
    if (!row) throw notFound(`Record ${collection}/${id}`);
    return row;
  }

  #conflict(collection: CollectionName, row: RecordRow, id: string): Conflict {
    const c = row.state.conflicts.find((k) => conflictId(collection, row.id, k.field, k.stamp) === id);
    if (!c) throw notFound(`Conflict ${id}`);
    return c;
  }

  /** A fresh stamp and mutation id. The clock state lives in the database and is read and written
   * inside the command's transaction, so tabs sharing the database never issue the same stamp. */
  async #issue(): Promise<{ stamp: string; mutationId: number }> {
    const meta = (await this.#db.meta.get("clock")) as ClockMeta;
    const clock = new Clock({ node: this.#node, now: this.#now, last: meta.last });
    const stamp = clock.now();
    await this.#db.meta.put({ key: "clock", last: stamp, nextMutationId: meta.nextMutationId + 1 } satisfies ClockMeta);
    return { stamp, mutationId: meta.nextMutationId };
  }

  async #life(collection: CollectionName, id: string, op: "delete" | "restore"): Promise<CommandResult> {
    // A wrapped vault key is never deleted (the server refuses it too: sync/PROTOCOL.md): the
    // logins it sealed name it, and they would become unreadable for everyone.
    if (collection === "vaultKeys" && op === "delete") return { ok: false, issues: [{ path: "", key: VAULT_KEY_KEPT, params: {} }] };
    return this.#write(collection, async () => {
      const row = await this.#row(collection, id);
      if (isDeleted(row.state) === (op === "delete")) return { ok: true };
      if (op === "restore") {
        const checked = validateLoaded(collection, visibleFields(row.state));
        if (!checked.ok) return checked;
      }
      const issued = await this.#issue();
      const mutation: Mutation = { op, stamp: issued.stamp, author: this.clientId, base: baseFor(row) };
      await this.#commit(collection, row.workspaceId, id, row, row.local, { mutationId: issued.mutationId, mutation, status: "pending" });
      return { ok: true };
    });
  }

  /** Appends a new local mutation to a record and the outbox (inside the command's transaction). */
  async #commit(
    collection: CollectionName,
    workspaceId: string,
    id: string,
    row: RecordRow | undefined,
    keep: LocalMutation[],
    added: LocalMutation,
  ): Promise<void> {
    await this.#db.outbox.add({
      mutationId: added.mutationId,
      workspaceId,
      collection,
      recordId: id,
      mutation: added.mutation,
      createdAt: this.#now(),
    });
    const server = row ? (row.local.length === 0 ? row.state : row.server) : undefined;
    const epoch = row?.epoch ?? 0;
    const next = buildRow({ id, workspaceId, epoch }, server, [...keep, added]);
    await writeRows(this.#db, collection, [next], new Map([[id, row]]));
  }

  /** Rewrites a row with other local mutations (or deletes it when nothing is left of it). */
  async #rewrite(collection: CollectionName, row: RecordRow, keep: LocalMutation[]): Promise<void> {
    const server = row.local.length === 0 ? row.state : row.server;
    if (server === undefined && keep.length === 0) {
      await writeRows(this.#db, collection, [], new Map([[row.id, row]]), [row.id]);
      return;
    }
    await writeRows(this.#db, collection, [buildRow(row, server, keep)], new Map([[row.id, row]]));
  }
}

export function parseConflictId(conflictId: string): { collection: CollectionName; recordId: string } {
  const [collection, recordId] = conflictId.split("/");
  if (collection === undefined || recordId === undefined || !(COLLECTION_NAMES as readonly string[]).includes(collection)) {
    throw notFound(`Conflict ${conflictId}`);
  }
  return { collection: collection as CollectionName, recordId };
}


