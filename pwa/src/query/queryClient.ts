// TanStack Query defaults from the spec: keep unused data 5 minutes, retry 3 times with
// exponential backoff from 1 s capped at 30 s (1 s, 2 s, 4 s, …, 30 s).
import { QueryClient } from "@tanstack/react-query";

export const QUERY_GC_TIME_MS = 5 * 60 * 1000;
export const QUERY_RETRY_COUNT = 3;
export const QUERY_RETRY_BASE_MS = 1000;
export const QUERY_RETRY_MAX_MS = 30_000;

/** Delay before retry number attemptIndex + 1 (TanStack passes the failure count so far, from 0). */
export function queryRetryDelay(attemptIndex: number): number {
  return Math.min(QUERY_RETRY_BASE_MS * 2 ** attemptIndex, QUERY_RETRY_MAX_MS);
}

export function createQueryClient(): QueryClient {
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
