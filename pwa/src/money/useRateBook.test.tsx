// The device's rate book: the server's rates cached by clientdb (here answered by a stand-in for
// GET /api/v1/fx-rates; clientdb/test/fx.test.ts runs the real server) and the workspace's manual
// rates (a real fxRates record in a real device database), with the manual one winning on its date
// and everything still converting offline.
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider } from "@patrimonio/clientdb";
import { act, render, screen, waitFor } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, describe, expect, test, vi } from "vitest";
import { convert } from "./convert";
import { useRateBook } from "./useRateBook";

const WORKSPACE = "0a1b2c3d-0000-4000-8000-000000000001";

function Shown({ date }: { date: string }) {
  const book = useRateBook(WORKSPACE, ["USD", "UYU"]);
  if (!book) return <p>loading</p>;
  const usd = convert("100", "USD", "EUR", date, book);
  const uyu = convert("86.4", "UYU", "EUR", date, book);
  const text = (c: ReturnType<typeof convert>) => (c.ok ? `${c.amount}@${c.rateDate}` : c.reason);
  return <p data-testid="out">{`${text(usd)} ${text(uyu)}`}</p>;
}

afterEach(() => vi.unstubAllGlobals());

describe("useRateBook", () => {
  test("server rates and manual rates, manual first on its date, offline too", async () => {
    const answer = { latest: "2024-01-03", days: [{ date: "2024-01-02", source: "ecb", rates: { USD: "1.25" } }, { date: "2024-01-03", source: "ecb", rates: { USD: "1.0919" } }] };
    const fetch = vi.fn(async (_url: string) => new Response(JSON.stringify(answer), { status: 200, headers: { "Content-Type": "application/json" } }));
    vi.stubGlobal("fetch", fetch);
    const db = await ClientDb.open({ name: "rate-book-test", indexedDB: new IDBFactory(), IDBKeyRange });
    const created = await db.create("fxRates", WORKSPACE, { date: "2024-01-03", currency: "USD", perEur: "1.25", note: "Banco" });
    expect(created.ok).toBe(true);

    const view = render(
      <ClientDbProvider db={db}>
        <Shown date="2024-01-03" />
      </ClientDbProvider>,
    );
    // The manual 1.25 wins over the ECB's 1.0919 on the 3rd; no UYU rate: missing, never 1:1.
    await waitFor(() => expect(screen.getByTestId("out").textContent).toBe("80@2024-01-03 missing"));
    expect(fetch).toHaveBeenCalledWith("/api/v1/fx-rates?currencies=USD,UYU", expect.anything());

    // A manual UYU rate typed offline converts at once.
    await act(async () => {
      await db.create("fxRates", WORKSPACE, { date: "2024-01-02", currency: "UYU", perEur: "43.2" });
    });
    await waitFor(() => expect(screen.getByTestId("out").textContent).toBe("80@2024-01-03 2@2024-01-02"));

    // Offline on another day: the cached server rate of the 2nd is used.
    view.unmount();
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("offline"))));
    render(
      <ClientDbProvider db={db}>
        <Shown date="2024-01-02" />
      </ClientDbProvider>,
    );
    await waitFor(() => expect(screen.getByTestId("out").textContent).toBe("80@2024-01-02 2@2024-01-02"));
    db.close();
  });
});
