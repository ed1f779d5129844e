// An incremental live list of one workspace's records: read in full once, then only the records a
// committed write touched are read again (Dexie's `storagemutated` signal names their primary keys,
// for this tab's writes and, through its BroadcastChannel, other tabs'). Unchanged records keep
// their objects, so screens can cache per record; a list of 10,000 assets does not re-read and
// rebuild 10,000 records when one is created, or when the server's page confirms it.
// Shared per (database, collection, workspace); kept up to date for KEEP_ALIVE_MS after its last
// subscriber leaves, so navigating back to a screen shows the list at once instead of reading
// 10,000 rows again.
// No Dexie import (rows.ts says why): the change signal comes through the handle.
import type { CollectionName } from "@patrimonio/shared-schema";
import type { ClientDb, SyncedRecord } from "../clientdb";
import type { RecordRow } from "../db";
import { internals } from "../internal";
import { dbOf, listRows, toRecord } from "../rows";

interface RangeNode {
  from?: unknown;
  to?: unknown;
  l?: RangeNode | null;
  r?: RangeNode | null;
  d?: number;
}

/** The single keys of a (possibly structured-cloned) Dexie RangeSet, or "all" when it holds a range. */
function keysOf(node: RangeNode | null | undefined, out: Set<string>): Set<string> | "all" {
  const stack: RangeNode[] = [];
  let at = node ?? null;
  while (at || stack.length > 0) {
    while (at) {
      stack.push(at);
      at = at.l ?? null;
    }
    const n = stack.pop()!;
    if (n.d !== 0 && n.from !== undefined) {
      if (typeof n.from !== "string" || n.from !== n.to) return "all";
      out.add(n.from);
    }
    at = n.r ?? null;
  }
  return out;
}

/** Where `id` is, or would go, in the sorted `order` (binary search). */
function position(order: readonly string[], id: string): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (order[mid]! < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How long a list stays live (listening, snapshot kept) after its last subscriber left. */
export const KEEP_ALIVE_MS = 5 * 60 * 1000;

export class LiveRecordList<C extends CollectionName> {
  #records = new Map<string, SyncedRecord<C>>();
  /** Ids in the order of `listRows` (the index [workspaceId+deleted], then the id). */
  #order: string[] = [];
  #snapshot: SyncedRecord<C>[] | undefined = undefined;
  #listeners = new Set<() => void>();
  #pending: Set<string> | "all" | null = null;
  #running = false;
  #stopped = true;
  #idleTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #part: string;
  readonly #onMutated = (parts: Record<string, unknown>) => this.#mutated(parts as Record<string, RangeNode>);
  #stopListening: (() => void) | undefined;

  constructor(
    readonly handle: ClientDb,
    readonly collection: C,
    readonly workspaceId: string,
    private readonly registry: { active(list: LiveRecordList<C>): void; idle(list: LiveRecordList<C>): void },
    private readonly keepAliveMs = KEEP_ALIVE_MS,
  ) {
    this.#part = `idb://${handle.name}/${collection}/`;
  }

  /** The records (not deleted), or undefined until the first full read answered. */
  snapshot = (): SyncedRecord<C>[] | undefined => this.#snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#stopped) this.#start();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size > 0) return;
      clearTimeout(this.#idleTimer);
      this.#idleTimer = setTimeout(() => {
        if (this.#listeners.size === 0) this.#stop();
      }, this.keepAliveMs);
      (this.#idleTimer as { unref?: () => void }).unref?.();
    };
  };

  /** Stops listening now (and forgets the snapshot), e.g. when the database closes. */
  dispose(): void {
    clearTimeout(this.#idleTimer);
    if (!this.#stopped) this.#stop();
  }

  #start(): void {
    this.#stopped = false;
    this.registry.active(this);
    // Listen before the first read, so a write landing during it is read again afterwards.
    this.#stopListening = internals(this.handle).live.onMutated(this.#onMutated);
    this.#pending = "all";
    void this.#run();
  }

  #stop(): void {
    this.#stopped = true;
    this.#stopListening?.();
    this.#stopListening = undefined;
    this.#snapshot = undefined;
    this.#records.clear();
    this.#order = [];
    this.#pending = null;
    this.registry.idle(this);
  }

  #mutated(parts: Record<string, RangeNode>): void {
    if (this.#stopped) return;
    let keys: Set<string> | "all" | null = null;
    if (Object.hasOwn(parts, "all")) keys = "all";
    else if (Object.hasOwn(parts, this.#part)) keys = keysOf(parts[this.#part], new Set());
    if (keys === null) return;
    if (keys === "all" || this.#pending === "all") this.#pending = "all";
    else {
      this.#pending ??= new Set();
      for (const k of keys) this.#pending.add(k);
    }
    void this.#run();
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      while (this.#pending !== null && !this.#stopped) {
        const job = this.#pending;
        this.#pending = null;
        if (job === "all" || this.#snapshot === undefined) await this.#readAll();
        else await this.#readKeys([...job]);
        if (this.#stopped) return;
        this.#emit();
      }
    } catch {
      // The database was closed (sign-out) or deleted: stop (a later subscriber starts afresh).
      this.dispose();
    } finally {
      this.#running = false;
    }
  }

  async #readAll(): Promise<void> {
    const rows = await listRows(dbOf(this.handle), this.collection, this.workspaceId, false);
    const previous = this.#records;
    this.#records = new Map();
    this.#order = [];
    for (const row of rows) {
      const old = previous.get(row.id);
      const rec = toRecord(this.collection, row);
      this.#records.set(row.id, old && sameRecord(old, rec) ? old : rec);
      this.#order.push(row.id);
    }
  }

  async #readKeys(ids: string[]): Promise<void> {
    const rows = (await dbOf(this.handle).records(this.collection).bulkGet(ids)) as (RecordRow | undefined)[];
    rows.forEach((row, i) => {
      const id = ids[i]!;
      const live = row !== undefined && row.workspaceId === this.workspaceId && row.deleted === 0;
      const had = this.#records.has(id);
      if (live) {
        this.#records.set(id, toRecord(this.collection, row));
        if (!had) this.#order.splice(position(this.#order, id), 0, id);
      } else if (had) {
        this.#records.delete(id);
        const at = position(this.#order, id);
        if (this.#order[at] === id) this.#order.splice(at, 1);
      }
    });
  }

  #emit(): void {
    this.#snapshot = this.#order.map((id) => this.#records.get(id)!);
    for (const l of [...this.#listeners]) l();
  }
}

/** Whether a re-read record shows exactly what the kept one showed (then the kept object stays). */
function sameRecord(a: SyncedRecord, b: SyncedRecord): boolean {
  return (
    a.deleted === b.deleted &&
    a.pending === b.pending &&
    a.rejected === b.rejected &&
    a.conflicts === b.conflicts &&
    JSON.stringify(a.clocks) === JSON.stringify(b.clocks) &&
    JSON.stringify(a.fields) === JSON.stringify(b.fields)
  );
}

const lists = new WeakMap<ClientDb, Map<string, LiveRecordList<CollectionName>>>();

/** The shared live list of a collection in a workspace (created on first use, dropped KEEP_ALIVE_MS
 * after its last subscriber left). */
export function liveRecordList<C extends CollectionName>(
  handle: ClientDb,
  collection: C,
  workspaceId: string,
  keepAliveMs = KEEP_ALIVE_MS,
): LiveRecordList<C> {
  let byKey = lists.get(handle);
  if (!byKey) {
    byKey = new Map();
    lists.set(handle, byKey);
  }
  const key = `${collection}\u0000${workspaceId}`;
  const found = byKey.get(key) as LiveRecordList<C> | undefined;
  if (found) return found;
  const registry = {
    active: (list: LiveRecordList<C>) => {
      if (!byKey.has(key)) byKey.set(key, list as unknown as LiveRecordList<CollectionName>);
    },
    idle: (list: LiveRecordList<C>) => {
      if (byKey.get(key) === (list as unknown as LiveRecordList<CollectionName>)) byKey.delete(key);
    },
  };
  const made = new LiveRecordList(handle, collection, workspaceId, registry, keepAliveMs);
  byKey.set(key, made as unknown as LiveRecordList<CollectionName>);
  return made;
}
