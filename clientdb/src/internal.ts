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
}

export function register(handle: object, internals: Internals): void {
  databases.set(handle, internals);
}

export function internals(handle: object): Internals {
  const i = databases.get(handle);
  if (i === undefined) throw new Error("Not a ClientDb handle.");
  return i;
}
