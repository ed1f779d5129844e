// "Ready to work offline" is news once per install: the first time a service worker has cached the
// app on this browser. The mark lives in localStorage under OFFLINE_READY_KEY, which sign-out's wipe
// keeps (auth/wipe.ts, KEPT_STORAGE_KEYS) like the language and theme: it belongs to the device.
// Sign-out's Clear-Site-Data also unregisters the worker, so without the mark the toast came back
// after every sign-out.

export const OFFLINE_READY_KEY = "patrimonio.offlineReadyShown";

/** Whether this browser was already told the app works offline (storage that throws: no). */
export function offlineReadyShown(storage: Pick<Storage, "getItem"> | undefined): boolean {
  try {
    return storage?.getItem(OFFLINE_READY_KEY) === "1";
  } catch {
    return false;
  }
}

export function markOfflineReadyShown(storage: Pick<Storage, "setItem"> | undefined): void {
  try {
    storage?.setItem(OFFLINE_READY_KEY, "1");
  } catch {
    // Blocked storage: the notice may come again, nothing worse.
  }
}

export function browserStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
