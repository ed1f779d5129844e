// TanStack Query defaults from the spec: keep unused data 5 minutes, retry 3 times with
// exponential backoff from 1 s capped at 30 s (1 s, 2 s, 4 s, …, 30 s).
import { onlineManager, QueryClient } from "@tanstack/react-query";

export const QUERY_GC_TIME_MS = 5 * 60 * 1000;
export const QUERY_RETRY_COUNT = 3;
export const QUERY_RETRY_BASE_MS = 1000;
export const QUERY_RETRY_MAX_MS = 30_000;

/** Delay before retry number attemptIndex + 1 (TanStack passes the failure count so far, from 0). */
export function queryRetryDelay(attemptIndex: number): number {
  return Math.min(QUERY_RETRY_BASE_MS * 2 ** attemptIndex, QUERY_RETRY_MAX_MS);
}

/**
 * TanStack Query takes the browser for online until an "offline" event says otherwise, so a page
 * loaded offline ran its server queries, spun through their retries and showed a network error. It
 * starts from navigator.onLine instead: offline, server queries wait for the network (fetchStatus
 * "paused") and the screens say what needs it (shell/NeedsConnection.tsx).
 */
export function followBrowserOnline(): void {
  onlineManager.setEventListener((setOnline) => {
    if (typeof window === "undefined") return undefined;
    const online = () => setOnline(true);
    const offline = () => setOnline(false);
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    setOnline(typeof navigator === "undefined" || navigator.onLine !== false);
    return () => {
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
    };
  });
}

export function createQueryClient(): QueryClient {
  followBrowserOnline();
  return new QueryClient({
    defaultOptions: {
      queries: {
        gcTime: QUERY_GC_TIME_MS,
        retry: QUERY_RETRY_COUNT,
        retryDelay: queryRetryDelay,
      },
    },
  });
}
