import { focusManager, onlineManager } from "@tanstack/react-query";
import { afterEach, describe, expect, test, vi } from "vitest";
import { QUERY_GC_TIME_MS, QUERY_RETRY_COUNT, createQueryClient, queryRetryDelay } from "./queryClient";

describe("queryRetryDelay", () => {
  test("doubles from one second and stops growing at thirty seconds", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map(queryRetryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });
});

describe("createQueryClient", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test("starts offline when the browser is (TanStack alone waits for an event), and follows its events", () => {
    const onLine = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    try {
      createQueryClient();
      expect(onlineManager.isOnline()).toBe(false);
      window.dispatchEvent(new Event("online"));
      expect(onlineManager.isOnline()).toBe(true);
      window.dispatchEvent(new Event("offline"));
      expect(onlineManager.isOnline()).toBe(false);
    } finally {
      onLine.mockRestore();
      onlineManager.setOnline(true);
    }
  });

  test("keeps unused data five minutes and retries three times with the backoff", () => {
    const queries = createQueryClient().getDefaultOptions().queries;
    expect(QUERY_GC_TIME_MS).toBe(5 * 60 * 1000);
    expect(queries?.gcTime).toBe(QUERY_GC_TIME_MS);
    expect(queries?.retry).toBe(QUERY_RETRY_COUNT);
    expect(QUERY_RETRY_COUNT).toBe(3);
    expect(queries?.retryDelay).toBe(queryRetryDelay);
  });

  test("a failing query is tried four times in all, 1 s, 2 s and 4 s apart, then fails", async () => {
    vi.useFakeTimers();
    focusManager.setFocused(true);
    onlineManager.setOnline(true);
    const client = createQueryClient();
    const calls: number[] = [];
    const result = client
      .fetchQuery({
        queryKey: ["always-fails"],
        queryFn: () => {
          calls.push(Date.now());
          return Promise.reject(new Error("server down"));
        },
      })
      .then(
        () => "resolved",
        (error: unknown) => (error instanceof Error ? error.message : "?"),
      );
    await vi.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(await result).toBe("server down");
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] ?? 0));
    expect(gaps).toEqual([1000, 2000, 4000]);
    focusManager.setFocused(undefined);
    client.clear();
  });
});
