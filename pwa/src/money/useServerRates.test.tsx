// The device's server rates of some currencies follow the currencies asked: when a new one is asked
// (a GBP asset appears, another workspace opens) the answer is "loading" until that one is read,
// never the previous currencies' rates, which made the figures briefly report the new currency's
// amounts as missing a rate (and remember that).
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider, refreshRates, useServerRates } from "@patrimonio/clientdb";
import { renderHook, waitFor } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import type { ReactNode } from "react";
import { describe, expect, test } from "vitest";

describe("useServerRates", () => {
  test("a new currency asked: loading until its rates are read, never the old list", async () => {
    const answer = { latest: "2024-01-03", days: [{ date: "2024-01-03", source: "ecb", rates: { USD: "1.0919", GBP: "0.8625" } }] };
    const db = await ClientDb.open({ name: "server-rates-test", indexedDB: new IDBFactory(), IDBKeyRange });
    await refreshRates(db, { fetch: async () => new Response(JSON.stringify(answer), { status: 200, headers: { "Content-Type": "application/json" } }), url: "/api/v1/fx-rates", currencies: ["USD", "GBP"] });
    const wrapper = ({ children }: { children: ReactNode }) => <ClientDbProvider db={db}>{children}</ClientDbProvider>;
    const view = renderHook(({ currencies }) => useServerRates(currencies), { wrapper, initialProps: { currencies: ["USD"] } });
    await waitFor(() => expect(view.result.current?.map((r) => r.currency)).toEqual(["USD"]));

    view.rerender({ currencies: ["GBP", "USD"] });
    // At once: not the USD-only list of before.
    expect(view.result.current).toBeUndefined();
    await waitFor(() => expect(view.result.current?.map((r) => r.currency)).toEqual(["GBP", "USD"]));
    db.close();
  });
});
