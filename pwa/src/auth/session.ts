// Who is signed in, as the PWA knows it: GET /api/v1/me, with the last answer kept on the device so
// that a signed-in user can still open the app offline (the app is local-first). The copy is user
// data: sign-out deletes it with everything else (./wipe.ts).
import { ERROR_CODES, isApiError, type ApiClient } from "../api/client";
import { endpoints } from "../api/endpoints";
import type { Me } from "../api/types";

export const ME_CACHE_KEY = "patrimonio.me";

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function defaultStorage(): KeyValueStorage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export function readCachedMe(storage: KeyValueStorage | undefined = defaultStorage()): Me | null {
  try {
    const raw = storage?.getItem(ME_CACHE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<Me>;
    if (typeof value?.user?.id !== "string" || typeof value.onboarding?.step !== "string") return null;
    return value as Me;
  } catch {
    return null;
  }
}

export function writeCachedMe(me: Me | null, storage: KeyValueStorage | undefined = defaultStorage()): void {
  try {
    if (me) storage?.setItem(ME_CACHE_KEY, JSON.stringify(me));
    else storage?.removeItem(ME_CACHE_KEY);
  } catch {
    // Storage full or blocked: the app still works online.
  }
}

/**
 * The signed-in user, or null when nobody is. The server answers 204 when nobody is signed in (a 401
 * from an older server means the same); either forgets the device copy. When the server cannot be
 * reached, the device copy answers, so the app opens offline.
 */
export async function loadMe(api: ApiClient, storage: KeyValueStorage | undefined = defaultStorage()): Promise<Me | null> {
  try {
    const me = await endpoints.me(api);
    writeCachedMe(me, storage);
    return me;
  } catch (error) {
    if (isApiError(error, ERROR_CODES.unauthorized)) {
      writeCachedMe(null, storage);
      return null;
    }
    if (isApiError(error, ERROR_CODES.network)) return readCachedMe(storage);
    throw error;
  }
}
