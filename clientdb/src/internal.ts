// The link from a ClientDb handle to its Dexie database, for this package's sync engine and hooks
// only: the package index does not export it, so nothing outside clientdb can reach the tables.
import type { LocalDb } from "./db";

const databases = new WeakMap<object, Internals>();

export interface Internals {
  db: LocalDb;
  clientId: string;
  node: string;
  /** Wall clock (ms), injected. */
  now: () => number;
  /** Dexie's change signal and live queries, handed over by the handle (clientdb.ts) so that the
   * live hooks' modules need not import Dexie (rows.ts says why). */
  live: LiveSource;
}

/** What a live query's subscriber gets: every new result, or the error that ended it. */
export interface LiveSubscription {
  unsubscribe(): void;
}

export interface LiveSource {
  /** Runs `querier` now and again after every committed write (this tab's or another's) to what
   * it read; see Dexie's liveQuery. */
  query<T>(querier: () => Promise<T>, next: (value: T) => void, error: (err: unknown) => void): LiveSubscription;
  /** Calls `listener` with the primary keys every committed write touched (Dexie's
   * `storagemutated`: this tab's writes and, through its BroadcastChannel, other tabs'). */
  onMutated(listener: (parts: Record<string, unknown>) => void): () => void;
}

export function register(handle: object, internals: Internals): void {
  databases.set(handle, internals);
}

export function internals(handle: object): Internals {
  const i = databases.get(handle);
  if (i === undefined) throw new Error("Not a ClientDb handle.");
  return i;
}
