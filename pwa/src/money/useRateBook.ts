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
const lastRefresh = new WeakMap<ClientDb, { at: number; running?: Promise<unknown> }>();

/** Refreshes the device's server rates now (deduplicated while one runs); never throws (offline
 * keeps the cache). */
export async function refreshDeviceRates(db: ClientDb, force = false): Promise<void> {
  const last = lastRefresh.get(db);
  if (last?.running) return void (await last.running.catch(() => undefined));
  if (!force && last && Date.now() - last.at < REFRESH_EVERY_MS) return;
  const running = refreshRates(db, { fetch: (input, init) => globalThis.fetch(input, init), url: `${API_BASE_URL}/fx-rates` });
  lastRefresh.set(db, { at: last?.at ?? 0, running });
  try {
    await running;
    lastRefresh.set(db, { at: Date.now() });
  } catch {
    lastRefresh.set(db, { at: last?.at ?? 0 }); // offline or signed out: try again next time
  }
}

/** Keeps the device's server rates fresh while mounted: at once, hourly at most, and when the
 * browser comes back online. */
export function useRatesRefresh(): void {
  const db = useClientDb();
  useEffect(() => {
    if (!db) return;
    const run = () => void refreshDeviceRates(db);
    if (typeof navigator === "undefined" || navigator.onLine !== false) run();
    window.addEventListener("online", run);
    return () => window.removeEventListener("online", run);
  }, [db]);
}

/**
 * The rate book of a workspace for some currencies (the ones its records use and the base),
 * live; undefined while loading. Refreshes the server rates when online.
 */
export function useRateBook(workspaceId: string | undefined, currencies: readonly string[]): RateBook | undefined {
  useRatesRefresh();
  const server = useServerRates(currencies);
  const manual = useRecords("fxRates", workspaceId);
  return useMemo(() => {
    if (!server || !manual) return undefined;
    const typed: EurRate[] = manual.map((r) => ({ date: r.fields.date, currency: r.fields.currency, perEur: r.fields.perEur, source: MANUAL }));
    return new RateBook(server, typed);
  }, [server, manual]);
}
