// The device database and its sync (Dexie, clientdb and the sync schemas) are the heaviest part of
// the signed-in app. They come in their own chunk, fetched together with the app shell's (see the
// "app" layout route and AdaptiveLayout) but parsed and run as a separate task, so the first paint
// of the dashboard is not one long block of script (Lighthouse's Total Blocking Time).
import type { DeviceSync } from "../sync/DeviceSync";
import type { SyncStatus } from "../sync/SyncStatus";

export interface SyncModules {
  DeviceSync: typeof DeviceSync;
  SyncStatus: typeof SyncStatus;
}

let loaded: SyncModules | null = null;
let loading: Promise<SyncModules> | null = null;

/** Loads the sync modules once; a failed load (offline before the chunk was cached) may be tried again. */
export function loadSyncModules(): Promise<SyncModules> {
  loading ??= Promise.all([import("../sync/DeviceSync"), import("../sync/SyncStatus")]).then(
    ([device, status]) => (loaded = { DeviceSync: device.DeviceSync, SyncStatus: status.SyncStatus }),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The sync modules once loaded (the routes load them before the shell renders), else null. */
export function loadedSyncModules(): SyncModules | null {
  return loaded;
}
