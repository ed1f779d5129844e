// The device database: one Dexie class, versioned, holding every synced collection of the shared
// schema plus the local sync tables. Only this package writes it (clientdb.ts: the commands;
// apply.ts: what the server sends; features/: commands over several records); screens read through
// the hooks. Nothing here is exported from the package index.
import Dexie, { type Table, type Transaction } from "dexie";
import { COLLECTION_NAMES, type CollectionName, type WireIssue } from "@patrimonio/shared-schema";
import type { JsonValue, Mutation, RecordState } from "./merge";

// ---------------------------------------------------------------- rows

/** A mutation this device made that the server state held in the row does not contain yet. */
export interface LocalMutation {
  mutationId: number;
  mutation: Mutation;
  /** pending: not confirmed yet (in the outbox until acknowledged, then until the page that
   * carries it back is applied); rejected: the server refused it (see the rejected table). */
  status: "pending" | "rejected";
}

/**
 * One record of a synced collection, as stored on the device.
 *
 * What the device shows (`state`) is the server-confirmed state with this device's own unconfirmed
 * mutations (`local`, in order) re-applied on top (sync/CLOCK.md, "devices keep the server's
 * confirmed state and re-apply their pending outbox on top of it"). While `local` is empty, `state`
 * IS the confirmed state and `server` is absent; otherwise `server` holds the confirmed state
 * (absent when the server has never sent this record, e.g. a record created offline).
 */
export interface RecordRow {
  id: string;
  workspaceId: string;
  /** 1 when the shown state is deleted (IndexedDB cannot index booleans). */
  deleted: 0 | 1;
  state: RecordState;
  server?: RecordState;
  local: LocalMutation[];
  /** Snapshot generation of the workspace this row was last confirmed in (see CursorRow.epoch). */
  epoch: number;
  /** Number of shown conflicts of `state` (rows with none skip the conflicts table). */
  conflictCount: number;
}

/** A mutation waiting to be pushed, in mutationId order (the push order). */
export interface OutboxRow {
  mutationId: number;
  workspaceId: string;
  collection: CollectionName;
  recordId: string;
  mutation: Mutation;
  /** Wall time (ms) of the command. */
  createdAt: number;
}

/** A shown conflict of a record (projection of RecordRow.state.conflicts for the screens). */
export interface ConflictRow {
  /** `collection/recordId/field/stamp` */
  id: string;
  workspaceId: string;
  collection: CollectionName;
  recordId: string;
  field: string;
  /** The losing value, who wrote it and its stamp (whose time part says when). */
  value: JsonValue;
  stamp: string;
  author: string;
  /** The field's current (winning) value; null when cleared. */
  current: JsonValue;
}

/** A mutation the server refused: kept (and still shown on the record) until fixed or discarded. */
export interface RejectedRow {
  mutationId: number;
  workspaceId: string;
  collection: CollectionName;
  recordId: string;
  mutation: Mutation;
  code: string;
  issues: WireIssue[];
  rejectedAt: number;
}

export interface DeviceMeta {
  key: "device";
  /** Stable id of this device database (UUID), the `author` of its mutations. */
  clientId: string;
  /** Node id of this device's hybrid logical clock (16 hex digits). */
  node: string;
  createdAt: number;
}

export interface ClockMeta {
  key: "clock";
  /** Last stamp issued or observed (sync/CLOCK.md, persistence). */
  last: string;
  /** The next mutation id to hand out (per client, strictly increasing). */
  nextMutationId: number;
}

/** Where the device stands in one workspace's change stream. */
export interface CursorMeta {
  key: `cursor:${string}`;
  workspaceId: string;
  /** Last workspace sequence number applied. Meaningful only when `held`: 0 is then a workspace
   * held at seq 0 (an empty snapshot applied), whose change 1 must come as a change. */
  seq: number;
  /** The device holds the workspace as of `seq`: a snapshot completed (even an empty one). False
   * (or a snapshot in progress): nothing yet, the hello asks for a snapshot (a null cursor).
   * Absent on rows written before protocol 3: see `heldCursor`. */
  held?: boolean;
  /** Bumped by a resync: rows of an older epoch that the new snapshot does not confirm are dropped
   * when it completes. */
  epoch: number;
  /** A snapshot in progress (first sync or resync), resumable: what the server needs to continue. */
  snapshot?: SnapshotProgress;
  /** Whether the last catch-up finished (a changes page with hasMore false). */
  caughtUp: boolean;
}

export interface SnapshotProgress {
  /** Opaque resume token from the server's last applied snapshot page (absent before the first). */
  resume?: string;
  /** Records received so far. */
  received: number;
  startedAt: number;
}

/** The connection as the leader tab last reported it (so every tab can show it). */
export interface LinkMeta {
  key: "link";
  state: "offline" | "connecting" | "online";
  /** Whether the leader is catching up or pushing right now. */
  busy: boolean;
  /** A fatal error code from the server (unauthorized, protocol_version, ...), if the leader stopped. */
  error?: string;
  /** Wall time (ms) of the last moment the device was fully synced. */
  lastSyncedAt?: number;
  at: number;
}

/** The enumeration cache's freshness (enums.ts): the ETag of the cached list and when it was
 * last checked with the server. */
export interface EnumsMeta {
  key: "enums";
  etag: string;
  count: number;
  checkedAt: number;
}

/** The exchange-rate cache's freshness (fx.ts): the newest date held and when the server was
 * last asked. */
export interface RatesMeta {
  key: "rates";
  latest: string;
  count: number;
  checkedAt: number;
}

export type MetaRow = DeviceMeta | ClockMeta | CursorMeta | LinkMeta | EnumsMeta | RatesMeta;

/** A cached exchange rate of the server (local-only table, fx.ts): perEur units of currency are
 * worth 1 EUR on date, an exact decimal string. */
export interface RateRow {
  currency: string;
  date: string;
  source: string;
  perEur: string;
}

/** A cached enumeration value (local-only table, enums.ts); parentId 0 at the top level. */
export interface EnumRow {
  id: number;
  type: string;
  code: string;
  parentId: number;
  level: string;
  labels: { es: string; en: string };
  order: number;
  active: boolean;
}

export function cursorKey(workspaceId: string): `cursor:${string}` {
  return `cursor:${workspaceId}`;
}

// ---------------------------------------------------------------- versions

/** Indexes of every synced collection's table. */
export const RECORD_INDEXES = "id, [workspaceId+deleted]";

/** One Dexie version: the synced collections it has a table for, its local tables, and the data
 * upgrade to run when a device moves up to it. */
export interface DbVersion {
  version: number;
  collections: readonly string[];
  local: Readonly<Record<string, string | null>>;
  upgrade?: (tx: Transaction) => Promise<void> | void;
}

/**
 * The schema history. Published entries are frozen: change the device schema by appending a
 * version (Dexie keeps the data of every table and index not removed, and runs `upgrade` once).
 * Adding a synced collection to the shared-schema registry needs a new entry here whose
 * `collections` is the registry's list again (COLLECTION_NAMES): db.test.ts fails until it exists.
 */
export const DB_VERSIONS: readonly DbVersion[] = [
  {
    version: 1,
    collections: [
      "assets",
      "legalStructures",
      "liabilities",
      "beneficiaries",
      "legacyInstructions",
      "valuations",
      "tasks",
      "cashFlows",
      "logins",
    ],
    local: {
      outbox: "mutationId, workspaceId",
      meta: "key",
      conflicts: "id, workspaceId, [collection+recordId]",
      rejected: "mutationId, workspaceId, [collection+recordId]",
    },
  },
  {
    // The enumeration cache (local-only, enums.ts): not synced, filled from GET /api/v1/enums/.
    version: 2,
    collections: [
      "assets",
      "legalStructures",
      "liabilities",
      "beneficiaries",
      "legacyInstructions",
      "valuations",
      "tasks",
      "cashFlows",
      "logins",
    ],
    local: {
      outbox: "mutationId, workspaceId",
      meta: "key",
      conflicts: "id, workspaceId, [collection+recordId]",
      rejected: "mutationId, workspaceId, [collection+recordId]",
      enums: "id, type, [type+code], [type+parentId]",
    },
  },
  {
    // Manual exchange rates (the synced collection fxRates) and the cache of the server's rates
    // (local-only, fx.ts: filled from GET /api/v1/fx-rates).
    version: 3,
    collections: [
      "assets",
      "legalStructures",
      "liabilities",
      "beneficiaries",
      "legacyInstructions",
      "valuations",
      "tasks",
      "cashFlows",
      "logins",
      "fxRates",
    ],
    local: {
      outbox: "mutationId, workspaceId",
      meta: "key",
      conflicts: "id, workspaceId, [collection+recordId]",
      rejected: "mutationId, workspaceId, [collection+recordId]",
      enums: "id, type, [type+code], [type+parentId]",
      rates: "[currency+date+source], date",
    },
  },
  {
    // The logins vault's wrapped keys (the synced collection vaultKeys, one per workspace).
    version: 4,
    collections: [
      "assets",
      "legalStructures",
      "liabilities",
      "beneficiaries",
      "legacyInstructions",
      "valuations",
      "tasks",
      "cashFlows",
      "logins",
      "fxRates",
      "vaultKeys",
    ],
    local: {
      outbox: "mutationId, workspaceId",
      meta: "key",
      conflicts: "id, workspaceId, [collection+recordId]",
      rejected: "mutationId, workspaceId, [collection+recordId]",
      enums: "id, type, [type+code], [type+parentId]",
      rates: "[currency+date+source], date",
    },
  },
];

export interface DbOptions {
  /** IndexedDB implementation (fake-indexeddb in Node); the global one by default. */
  indexedDB?: IDBFactory;
  IDBKeyRange?: typeof IDBKeyRange;
}

/** Why a device database handle closed for good (see LocalDb.gone). */
export type GoneReason = "closed" | "deleted" | "lost" | "replaced";

/** The device database this handle opened is not the one under its name any more (it was deleted
 * and made again, e.g. another tab signed out and in): nothing is read or written through it. */
export class ReplacedDatabaseError extends Error {
  readonly code = "replaced_database";
  constructor(name: string, expected: string, found: string | undefined) {
    super(`The device database ${name} now belongs to client ${found ?? "(none)"}, not to ${expected}: this handle is closed.`);
    this.name = "ReplacedDatabaseError";
  }
}

/**
 * The device database. Internal: the package exports commands and hooks, never the tables.
 *
 * A handle acts only on the database it opened. It closes for good (never reopening on its own,
 * which Dexie 4 otherwise does on the next access) when we close it, when the database is deleted
 * (a `versionchange` with no new version: another tab signed out), when the browser closes the
 * connection (IDBDatabase `close`: storage cleared) or, once `own` named its device, when a reopen
 * finds another device's database under the name. An upgrade by a newer version of the app in
 * another tab still closes it with reopening allowed (the same database, Dexie's default).
 */
export class LocalDb extends Dexie {
  outbox!: Table<OutboxRow, number>;
  meta!: Table<MetaRow, string>;
  conflicts!: Table<ConflictRow, string>;
  rejected!: Table<RejectedRow, number>;
  enums!: Table<EnumRow, number>;
  rates!: Table<RateRow, [string, string, string]>;

  constructor(name: string, options: DbOptions = {}, versions: readonly DbVersion[] = DB_VERSIONS) {
    super(name, {
      ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
      ...(options.IDBKeyRange ? { IDBKeyRange: options.IDBKeyRange } : {}),
      // Every tab keeps its own connection; a newer version elsewhere closes this one cleanly.
      autoOpen: true,
    });
    for (const v of versions) {
      const stores: Record<string, string | null> = { ...v.local };
      for (const c of v.collections) stores[c] = RECORD_INDEXES;
      const dv = this.version(v.version).stores(stores);
      if (v.upgrade) dv.upgrade(v.upgrade);
    }
    this.outbox = this.table("outbox");
    this.meta = this.table("meta");
    this.conflicts = this.table("conflicts");
    this.rejected = this.table("rejected");
    this.enums = this.table("enums");
    this.rates = this.table("rates");
    // Subscribers run before Dexie's default one; false skips it (which would close with
    // reopening allowed).
    this.on("versionchange", (ev: IDBVersionChangeEvent) => {
      if (ev.newVersion) return undefined;
      this.#closeForGood("deleted");
      return false;
    });
    // Dexie answers a close by the browser with a close that reopens on the next access.
    this.on(
      "ready",
      () => {
        const idb = this.backendDB();
        idb.onclose = () => this.#closeForGood("lost");
      },
      true,
    );
  }

  #gone: GoneReason | undefined;
  #owner: string | undefined;
  readonly #goneListeners = new Set<(reason: GoneReason) => void>();

  /** Why this handle closed for good; undefined while it may still be used. */
  get gone(): GoneReason | undefined {
    return this.#gone;
  }

  /** Calls `listener` once when the handle closes for good (at once if it has); returns the
   * unsubscribe. */
  onGone(listener: (reason: GoneReason) => void): () => void {
    if (this.#gone !== undefined) {
      listener(this.#gone);
      return () => {};
    }
    this.#goneListeners.add(listener);
    return () => this.#goneListeners.delete(listener);
  }

  /**
   * Names the device (clientId of the `device` meta row) this handle opened. Every later (re)open
   * checks that the database under the name is still that device's; otherwise the handle closes
   * for good ("replaced") and the open fails.
   */
  own(clientId: string): void {
    this.#owner = clientId;
    this.on(
      "ready",
      async (vipDb: Dexie | undefined) => {
        // Dexie also calls a sticky subscriber once at once when the database is open already,
        // without the VIP handle.
        const device = (await (vipDb ?? this).table("meta").get("device")) as DeviceMeta | undefined;
        if (device?.clientId === this.#owner) return;
        this.#closeForGood("replaced");
        throw new ReplacedDatabaseError(this.name, clientId, device?.clientId);
      },
      true,
    );
  }

  /**
   * Checks, inside the caller's transaction (which must include `meta`), that this database is
   * still the device `clientId`'s; otherwise closes the handle for good and throws (so the
   * transaction aborts and writes nothing).
   */
  async assertOwn(clientId: string): Promise<void> {
    const device = (await this.meta.get("device")) as DeviceMeta | undefined;
    if (device?.clientId === clientId) return;
    this.#closeForGood("replaced");
    throw new ReplacedDatabaseError(this.name, clientId, device?.clientId);
  }

  /** Dexie's close; unless reopening is explicitly allowed (Dexie's own closes for an upgrade
   * elsewhere), the handle is closed for good. */
  override close(options?: { disableAutoOpen: boolean }): void {
    if (options?.disableAutoOpen === false && this.#gone === undefined) {
      super.close(options);
      return;
    }
    this.#closeForGood("closed");
  }

  #closeForGood(reason: GoneReason): void {
    const first = this.#gone === undefined;
    if (first) this.#gone = reason;
    super.close({ disableAutoOpen: true });
    if (!first) return;
    const listeners = [...this.#goneListeners];
    this.#goneListeners.clear();
    for (const l of listeners) l(reason);
  }

  /** The table of a synced collection. */
  records(collection: CollectionName): Table<RecordRow, string> {
    return this.table(collection);
  }

  /** Every table a sync transaction may write. */
  syncTables(): Table[] {
    return [...COLLECTION_NAMES.map((c) => this.table(c)), this.outbox, this.meta, this.conflicts, this.rejected];
  }
}
