// loadMe: who is signed in, with the device copy for offline starts.
import { describe, expect, it } from "vitest";
import { createApiClient } from "../api/client";
import type { Me } from "../api/types";
import { loadMe, ME_CACHE_KEY, readCachedMe } from "./session";

function memoryStorage() {
  const data = new Map<string, string>();
  return {
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
  };
}

const me = { user: { id: "u1", email: "ana@example.com" }, onboarding: { step: "done" }, workspaces: [] } as unknown as Me;

function apiAnswering(answer: () => Response | Promise<Response>) {
  return createApiClient({ language: () => "es", fetch: async () => answer() });
}

describe("loadMe", () => {
  it("keeps the signed-in user on the device", async () => {
    const storage = memoryStorage();
    const api = apiAnswering(() => new Response(JSON.stringify(me), { status: 200, headers: { "Content-Type": "application/json" } }));
    expect(await loadMe(api, storage)).toEqual(me);
    expect(readCachedMe(storage)).toEqual(me);
  });

  it("reads 204 as nobody signed in and forgets the device copy", async () => {
    const storage = memoryStorage();
    storage.setItem(ME_CACHE_KEY, JSON.stringify(me));
    expect(await loadMe(apiAnswering(() => new Response(null, { status: 204 })), storage)).toBeNull();
    expect(storage.getItem(ME_CACHE_KEY)).toBeNull();
  });

  it("reads 401 the same way", async () => {
    const storage = memoryStorage();
    storage.setItem(ME_CACHE_KEY, JSON.stringify(me));
    const api = apiAnswering(
      () => new Response(JSON.stringify({ error: { code: "unauthorized", message: "x" } }), { status: 401, headers: { "Content-Type": "application/json" } }),
    );
    expect(await loadMe(api, storage)).toBeNull();
    expect(storage.getItem(ME_CACHE_KEY)).toBeNull();
  });

  it("answers from the device copy when the server cannot be reached", async () => {
    const storage = memoryStorage();
    storage.setItem(ME_CACHE_KEY, JSON.stringify(me));
    const api = apiAnswering(() => {
      throw new TypeError("Failed to fetch");
    });
    expect(await loadMe(api, storage)).toEqual(me);
  });
});
