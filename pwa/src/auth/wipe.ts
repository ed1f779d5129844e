// Sign-out wipes the device: every IndexedDB database (the wealth records, the outbox), every Cache
// Storage cache that may hold user data, and the user's keys in localStorage and sessionStorage.
// Kept: the service worker's precache of the app shell (so the app still opens offline) and the
// device's language and theme, which belong to the device, not to the user.
import { THEME_STORAGE_KEY } from "../theme/theme";
import { DETECTION_OPTIONS } from "../i18n/i18n";
import { OFFLINE_READY_KEY } from "../pwa/offlineReady";

/** localStorage / sessionStorage keys that survive sign-out. */
export const KEPT_STORAGE_KEYS: readonly string[] = [DETECTION_OPTIONS.lookupLocalStorage, THEME_STORAGE_KEY, OFFLINE_READY_KEY];

/** Workbox names its precache "workbox-precache-v2-<scope>": the app shell, no user data. */
export function isAppShellCache(name: string): boolean {
  return name.startsWith("workbox-precache");
}

export interface WipeTargets {
  indexedDB?: IDBFactory | undefined;
  caches?: CacheStorage | undefined;
  storages?: Storage[];
}

export interface WipeReport {
  databases: string[];
  caches: string[];
  storageKeys: string[];
  /** Databases still open in another tab: they are deleted once that tab lets go. */
  blocked: string[];
}

function deleteDatabase(factory: IDBFactory, name: string): Promise<"deleted" | "blocked"> {
  return new Promise((resolve, reject) => {
    const request = factory.deleteDatabase(name);
    let blocked = false;
    request.onsuccess = () => resolve(blocked ? "blocked" : "deleted");
    request.onerror = () => reject(request.error ?? new Error(`could not delete the database ${name}`));
    // Another connection (another tab) keeps it open. The deletion stays queued and finishes when
    // that connection closes; sign-out reloads this tab, and other tabs are told to reload too.
    request.onblocked = () => {
      blocked = true;
      resolve("blocked");
    };
  });
}

function snapshot(storage: Storage): Map<string, string> {
  const kept = new Map<string, string>();
  for (const key of KEPT_STORAGE_KEYS) {
    const value = storage.getItem(key);
    if (value !== null) kept.set(key, value);
  }
  return kept;
}

/**
 * Remembers the device settings (language, theme) of each storage, so they can be put back after
 * the server's Clear-Site-Data has emptied the storage.
 */
export function rememberDeviceSettings(storages: Storage[]): () => void {
  const saved = storages.map((storage) => [storage, snapshot(storage)] as const);
  return () => {
    for (const [storage, values] of saved) {
      for (const [key, value] of values) {
        try {
          if (storage.getItem(key) === null) storage.setItem(key, value);
        } catch {
          // Blocked storage: nothing to put back.
        }
      }
    }
  };
}

/** Deletes the user's data from this device (see the file comment for what is kept). */
export async function wipeDevice(targets: WipeTargets): Promise<WipeReport> {
  const report: WipeReport = { databases: [], caches: [], storageKeys: [], blocked: [] };

  const factory = targets.indexedDB;
  if (factory) {
    const list = typeof factory.databases === "function" ? await factory.databases() : [];
    const names = list.map((db) => db.name).filter((name): name is string => typeof name === "string");
    const results = await Promise.all(names.map(async (name) => [name, await deleteDatabase(factory, name)] as const));
    for (const [name, result] of results) {
      report.databases.push(name);
      if (result === "blocked") report.blocked.push(name);
    }
  }

  if (targets.caches) {
    for (const name of await targets.caches.keys()) {
      if (isAppShellCache(name)) continue;
      if (await targets.caches.delete(name)) report.caches.push(name);
    }
  }

  for (const storage of targets.storages ?? []) {
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i++) {
      const key = storage.key(i);
      if (key !== null && !KEPT_STORAGE_KEYS.includes(key)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
    report.storageKeys.push(...keys);
  }
  return report;
}

/** The wipe targets of this browser window. */
export function browserWipeTargets(): WipeTargets {
  const storages: Storage[] = [];
  try {
    storages.push(window.localStorage, window.sessionStorage);
  } catch {
    // Storage blocked: nothing to wipe there.
  }
  return {
    indexedDB: typeof indexedDB === "undefined" ? undefined : indexedDB,
    caches: typeof caches === "undefined" ? undefined : caches,
    storages,
  };
}
