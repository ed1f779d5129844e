// The base currency on the device: the server's value is taken, a choice made offline stays
// pending (and wins over the server's) until it is sent, and a refused choice (a viewer) is dropped.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, type ApiClient } from "../../api/client";
import { readHeld, syncBaseCurrency } from "./baseCurrency";

const WS = "0a1b2c3d-0000-4000-8000-00000000000b";
const KEY = `patrimonio.baseCurrency.${WS}`;

function fakeApi(server: { code: string }, behaviour: { offline?: boolean; refuse?: boolean } = {}) {
  const calls: string[] = [];
  const api = {
    get: vi.fn(async (path: string) => {
      calls.push(`GET ${path}`);
      if (behaviour.offline) throw new ApiError(0, "network", "offline");
      return { baseCurrency: server.code };
    }),
    request: vi.fn(async (method: string, path: string, options?: { body?: { baseCurrency: string } }) => {
      calls.push(`${method} ${path} ${options?.body?.baseCurrency}`);
      if (behaviour.offline) throw new ApiError(0, "network", "offline");
      if (behaviour.refuse) throw new ApiError(403, "forbidden", "viewer");
      server.code = options!.body!.baseCurrency;
      return { baseCurrency: server.code };
    }),
  } as unknown as ApiClient;
  return { api, calls };
}

afterEach(() => localStorage.clear());

describe("the base currency on the device", () => {
  it("takes the server's value; an older bare copy is read too", async () => {
    localStorage.setItem(KEY, "GBP");
    expect(readHeld(WS)).toEqual({ code: "GBP", pending: false });
    const { api } = fakeApi({ code: "USD" });
    await syncBaseCurrency(api, WS);
    expect(readHeld(WS)).toEqual({ code: "USD", pending: false });
  });

  it("a choice made offline stays pending and is sent when online, winning over the server's", async () => {
    localStorage.setItem(KEY, JSON.stringify({ code: "CHF", pending: true }));
    const server = { code: "USD" };
    const offline = fakeApi(server, { offline: true });
    await syncBaseCurrency(offline.api, WS);
    expect(readHeld(WS)).toEqual({ code: "CHF", pending: true });
    const online = fakeApi(server);
    await syncBaseCurrency(online.api, WS);
    expect(online.calls).toEqual([`PUT /workspaces/${WS}/base-currency CHF`]);
    expect(server.code).toBe("CHF");
    expect(readHeld(WS)).toEqual({ code: "CHF", pending: false });
  });

  it("a refused choice (a viewer) is dropped for the server's value", async () => {
    localStorage.setItem(KEY, JSON.stringify({ code: "JPY", pending: true }));
    const refused = fakeApi({ code: "EUR" }, { refuse: true });
    await syncBaseCurrency(refused.api, WS);
    await vi.waitFor(() => expect(readHeld(WS)).toEqual({ code: "EUR", pending: false }));
  });
});
