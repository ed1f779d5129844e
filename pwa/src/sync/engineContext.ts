// The device database's engine (Dexie, @patrimonio/clientdb, the record schemas: ~53 KB gzip and the
// heaviest script of the signed-in app) comes in its own chunk, loaded after the first paint, so the
// dashboard paints first and parses the database code in a later task (Lighthouse's Total Blocking
// Time). Until it has loaded, screens see no database (a "not ready yet" they show as a skeleton).
import { createContext } from "react";
import type * as Engine from "./engine";

export type SyncEngine = typeof Engine;

let loaded: SyncEngine | null = null;
let loading: Promise<SyncEngine> | null = null;

/** Loads the engine once; a failed load (offline before the chunk was cached) may be tried again. */
export function loadSyncEngine(): Promise<SyncEngine> {
  loading ??= import("./engine").then(
    (engine) => (loaded = engine),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The engine once loaded, else null. */
export function loadedSyncEngine(): SyncEngine | null {
  return loaded;
}

/** Runs `task` once the browser is idle after the first paint (at the latest after `timeout` ms).
 * Returns a function that cancels it. */
export function whenIdle(task: () => void, timeout = 2000): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const id = window.requestIdleCallback(task, { timeout });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(task, 0);
  return () => window.clearTimeout(id);
}

/** Whether this browser can hold a device database and elect a sync leader. */
export function deviceSyncSupported(): boolean {
  return typeof indexedDB !== "undefined" && typeof navigator !== "undefined" && "locks" in navigator;
}

/** What DeviceSync tells the sync indicator: whether a database is coming (signed in, supported). */
export const DeviceSyncActive = createContext(false);

/** Why the device database could not be opened, when the browser said: the storage is full
 * (QuotaExceededError), the browser refuses to store data for this site (a private mode, storage
 * turned off: InvalidStateError, SecurityError...), the database was made by a newer version of the
 * app (VersionError), an upgrade waits for another tab of an older version to close ("blocked"), or
 * the engine's code could not be loaded (offline before the app was saved on this device). */
export type OpenFailureReason = "storage_full" | "refused" | "version" | "blocked" | "engine";

/** The device database could not be opened (or is waiting for another tab): why, when known, and
 * a retry. */
export interface OpenFailure {
  reason: OpenFailureReason | null;
  retry: () => void;
}

/** The device database could not be opened: why and the retry the sync indicator and the screens
 * offer (null otherwise). */
export const DeviceSyncOpenFailed = createContext<OpenFailure | null>(null);

/** Signed in on a browser that cannot hold a device database (no IndexedDB or no Web Locks). */
export const DeviceSyncUnsupported = createContext(false);
