// Sign-out: wipe this device (./wipe.ts), end the session on the server (which answers
// Clear-Site-Data too), tell the other tabs, and reload at /signin so no user data stays in memory
// either. The device is wiped first: after the browser has applied Clear-Site-Data, Chromium can
// leave indexedDB.databases() unanswered, and a wipe that waited for it would never end.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api/ApiProvider";
import { ERROR_CODES, isApiError, type ApiClient } from "../api/client";
import { endpoints } from "../api/endpoints";
import { queryKeys } from "../api/queries";
import type { Me } from "../api/types";
import { browserWipeTargets, rememberDeviceSettings, wipeDevice, type WipeReport, type WipeTargets } from "./wipe";
import { SIGN_IN_PATH } from "./guards";

/** Tabs of the app talk over this channel: one tab signing out signs them all out. */
export const SESSION_CHANNEL = "patrimonio.session";
/** Set for the next page (sessionStorage, this tab only): the hosted provider signs out there too. */
export const SIGNED_OUT_MARKER = "patrimonio.signedOut";
/**
 * Dispatched on window just before the wipe: whoever holds the device database open (the sync
 * engine) closes it and stops writing, so the deletion is not blocked or undone.
 */
export const SIGN_OUT_EVENT = "patrimonio:sign-out";
/**
 * Dispatched on window when this tab's session ends or changes hands without this tab signing out
 * (it expired, another device ended it, someone signs in): what the tab holds in memory for the
 * previous session (unlocked vaults) goes. The device database stays: changes not sent yet are kept.
 */
export const SESSION_CHANGED_EVENT = "patrimonio:session-changed";

/** Tells this tab that the session ended or changed hands (SESSION_CHANGED_EVENT). */
export function announceSessionChanged(): void {
  if (typeof window !== "undefined") window.dispatchEvent(new Event(SESSION_CHANGED_EVENT));
}

export interface SignOutDeps {
  api: ApiClient;
  targets?: WipeTargets;
  /** Where the browser goes afterwards; a full page load, so memory is cleared as well. */
  leave?: (path: string) => void;
  /** With the hosted provider, its own session is ended on the sign-in page that follows. */
  hostedProvider?: boolean;
}

export async function signOut({
  api,
  targets = browserWipeTargets(),
  leave = (path) => window.location.replace(path),
  hostedProvider = false,
}: SignOutDeps): Promise<WipeReport> {
  const restoreSettings = rememberDeviceSettings(targets.storages ?? []);
  if (typeof window !== "undefined") window.dispatchEvent(new Event(SIGN_OUT_EVENT));
  const report = await wipeDevice(targets);
  try {
    await endpoints.signOut(api);
  } catch (error) {
    // Offline or already signed out: the device is wiped all the same; an offline session ends at
    // its expiry on the server.
    if (!isApiError(error, ERROR_CODES.network) && !isApiError(error, ERROR_CODES.unauthorized)) {
      restoreSettings();
      throw error;
    }
  }
  // Clear-Site-Data emptied localStorage too: the device's language and theme go back.
  restoreSettings();
  if (hostedProvider) {
    try {
      sessionStorage.setItem(SIGNED_OUT_MARKER, "1");
    } catch {
      // Blocked storage: nothing to mark.
    }
  }
  if (typeof BroadcastChannel === "function") {
    const channel = new BroadcastChannel(SESSION_CHANNEL);
    channel.postMessage({ type: "signed-out" });
    channel.close();
  }
  leave(SIGN_IN_PATH);
  return report;
}

export function useSignOut() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => signOut({ api, hostedProvider: queryClient.getQueryData<Me | null>(queryKeys.me)?.provider === "clerk" }),
    // Signing out offline must still wipe the device, not wait for a network.
    networkMode: "always",
  });
}
