// Deleting the account: the server first (DELETE /api/v1/users/, which needs a recent proof of
// identity: the API client opens the re-verification dialog by itself), then this device is wiped
// with sign-out's own wipe (../../auth/wipe.ts). Nothing on the device is touched while the server
// refuses (the proof cancelled, the last owner of a team workspace, offline): the account is still
// there and so are the device's unsent changes.
//
// The server's answer carries Clear-Site-Data, and the browser acts on it before the page sees the
// answer. Two things are therefore taken before the call:
// - the device's language and theme (localStorage is empty afterwards), put back after the wipe,
//   exactly as sign-out keeps them;
// - the list of IndexedDB databases: right after Clear-Site-Data, Chromium can leave
//   indexedDB.databases() unanswered for good (deleteDatabase still works), and a wipe that waited
//   for the list would never end. (Sign-out avoids it by wiping before its call; a deletion cannot,
//   since it may still be refused.)
// And while Chromium closes the page's own connections to the databases it is clearing, a deletion
// asked for at that moment can fail ("AbortError: The connection was closed"): the wipe is then run
// again (it deletes whatever is still there; the next try succeeds).
import type { ApiClient } from "../../api/client";
import { endpoints } from "../../api/endpoints";
import { SIGN_OUT_EVENT, SIGNED_OUT_MARKER } from "../../auth/signOut";
import { browserWipeTargets, rememberDeviceSettings, wipeDevice, type WipeReport, type WipeTargets } from "../../auth/wipe";

export interface DeleteAccountDeps {
  api: ApiClient;
  targets?: WipeTargets;
  /** With the hosted provider, its own session is ended on the sign-in page that follows (as at sign-out). */
  hostedProvider?: boolean;
}

/**
 * The factory as the wipe uses it, with the list of databases taken now and answered from then on;
 * deleting goes to the real factory. Without databases() (older browsers) the factory is kept as is.
 */
async function withDatabasesListedNow(factory: IDBFactory | undefined): Promise<IDBFactory | undefined> {
  if (!factory || typeof factory.databases !== "function") return factory;
  const listed = await factory.databases();
  const snapshot: Pick<IDBFactory, "databases" | "deleteDatabase"> = {
    databases: async () => listed,
    deleteDatabase: (name) => factory.deleteDatabase(name),
  };
  return snapshot as IDBFactory;
}

/** The account is deleted, but this device could not be wiped (the cause says why). */
export class DeviceWipeError extends Error {
  override readonly name = "DeviceWipeError";
  constructor(cause: unknown) {
    super("The account was deleted, but the device could not be wiped.", { cause });
  }
}

/** How many times the wipe is run when the browser aborts it (see the file comment). */
export const WIPE_ATTEMPTS = 3;

async function wipeAfterClearSiteData(targets: WipeTargets): Promise<WipeReport> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await wipeDevice(targets);
    } catch (error) {
      if (attempt >= WIPE_ATTEMPTS || !(error instanceof DOMException)) throw error;
    }
  }
}

/**
 * Deletes the signed-in user's account, then wipes this device. Rejects with the server's ApiError,
 * wiping nothing, when the server refuses; with a DeviceWipeError when the account is gone but the
 * wipe failed.
 */
export async function deleteAccountAndWipe({ api, targets = browserWipeTargets(), hostedProvider = false }: DeleteAccountDeps): Promise<WipeReport> {
  const restoreSettings = rememberDeviceSettings(targets.storages ?? []);
  const indexedDB = await withDatabasesListedNow(targets.indexedDB);
  await endpoints.deleteAccount(api);
  // From here on the account is gone: whoever holds the device database closes it, and it goes.
  if (typeof window !== "undefined") window.dispatchEvent(new Event(SIGN_OUT_EVENT));
  let report: WipeReport;
  try {
    report = await wipeAfterClearSiteData({ ...targets, indexedDB });
  } catch (error) {
    restoreSettings();
    throw new DeviceWipeError(error);
  }
  restoreSettings();
  if (hostedProvider) {
    try {
      sessionStorage.setItem(SIGNED_OUT_MARKER, "1");
    } catch {
      // Blocked storage: nothing to mark.
    }
  }
  return report;
}
