// The rates a screen converts with, on the device: the server's (clientdb's cache of
// GET /api/v1/fx-rates, refreshed here when online) and the workspace's manual rates (the synced
// collection fxRates), put together in a RateBook (manual wins on the same date: rates.ts). Works
// offline with whatever the device holds. Not part of the pure index (it needs React and the
// device database).
import { refreshRates, useClientDb, useRecords, useServerRates, type ClientDb } from "@patrimonio/clientdb";
import { useEffect, useMemo } from "react";
import { API_BASE_URL } from "../api/client";
import { MANUAL, RateBook, type EurRate } from "./rates";

/** How often a mounted screen asks the server again (the ECB publishes once a working day). */
const REFRESH_EVERY_MS = 60 * 60 * 1000;

/** What a screen converts: its currencies and the earliest date of its values (the device asks
 * only for those, from the last rate on or before that date; clientdb's refreshRates). */
export interface RatesNeed {
  currencies: readonly string[];
  /** Absent: the whole history of those currencies. */
  from?: string | undefined;
}

const lastRefresh = new WeakMap<ClientDb, { at: number; key: string; running?: Promise<unknown> }>();

function keyOf(need: RatesNeed): string {
  return `${[...new Set(need.currencies)].filter((c) => c !== "EUR").sort().join(",")}|${need.from ?? ""}`;
}

/** Refreshes the device's server rates for a need now (one at a time; the same need at most
 * hourly unless forced); never throws (offline keeps the cache). */
export async function refreshDeviceRates(db: ClientDb, need: RatesNeed, force = false): Promise<void> {
  const key = keyOf(need);
  if (key.startsWith("|")) return; // only EUR: no rate needed
  const last = lastRefresh.get(db);
  if (last?.running) await last.running.catch(() => undefined);
  const done = lastRefresh.get(db);
  if (!force && done && done.key === key && Date.now() - done.at < REFRESH_EVERY_MS) return;
  const running = refreshRates(db, {
    fetch: (input, init) => globalThis.fetch(input, init),
    url: `${API_BASE_URL}/fx-rates`,
    currencies: need.currencies,
    ...(need.from ? { from: need.from } : {}),
  });
  lastRefresh.set(db, { at: done?.at ?? 0, key: done?.key ?? "", running });
  try {
    await running;
    lastRefresh.set(db, { at: Date.now(), key });
  } catch {
    lastRefresh.set(db, { at: done?.at ?? 0, key: done?.key ?? "" }); // offline or signed out: try again next time
  }
}

/** Keeps the device's rates of a need fresh while mounted: at once, hourly at most, when the need
 * grows (a new currency, an older value) and when the browser comes back online. Nothing while
 * `need` is undefined (the records are still loading). */
export function useRatesRefresh(need: RatesNeed | undefined): void {
  const db = useClientDb();
  const key = need ? keyOf(need) : undefined;
  useEffect(() => {
    if (!db || key === undefined) return;
    const [list, from] = key.split("|") as [string, string];
    const run = () => void refreshDeviceRates(db, { currencies: list ? list.split(",") : [], from: from || undefined });
    if (typeof navigator === "undefined" || navigator.onLine !== false) run();
    window.addEventListener("online", run);
    return () => window.removeEventListener("online", run);
  }, [db, key]);
}

/**
 * The rate book of a workspace for some currencies (the ones its records use and the base),
 * live; undefined while loading. Refreshes the server rates when online.
 */
export function useRateBook(workspaceId: string | undefined, currencies: readonly string[], from?: string): RateBook | undefined {
  useRatesRefresh(useMemo(() => ({ currencies, from }), [currencies, from]));
  const server = useServerRates(currencies);
  const manual = useRecords("fxRates", workspaceId);
  return useMemo(() => {
    if (!server || !manual) return undefined;
    const typed: EurRate[] = manual.map((r) => ({ date: r.fields.date, currency: r.fields.currency, perEur: r.fields.perEur, source: MANUAL }));
    return new RateBook(server, typed);
  }, [server, manual]);
}
