// The server's exchange rates on the device: a local-only cache of GET /api/v1/fx-rates (the ECB's
// euro reference rates and the server's second source), refreshed when online with the days from
// the newest one held (a first fill takes the whole history), and read through live queries, so
// every conversion works offline once the device has refreshed once. Manual rates of a workspace
// are the synced collection fxRates (useRecords("fxRates", workspaceId)); pwa/src/money puts both
// together (manual wins on the same date).
import { useLiveQuery } from "dexie-react-hooks";
import { dbOf, type ClientDb } from "./clientdb";
import type { LocalDb, RateRow, RatesMeta } from "./db";
import { useClientDb } from "./hooks";

export type { RateRow } from "./db";

export interface RefreshRatesOptions {
  /** The fetch to use (the window's in the PWA; Node's with a Cookie header in tests). */
  fetch: typeof fetch;
  /** The endpoint; "/api/v1/fx-rates" (same origin) by default. */
  url?: string;
  /** Extra request headers (Cookie in Node tests). */
  headers?: Record<string, string>;
}

export interface RefreshRatesResult {
  /** Rates received (new or re-sent). */
  received: number;
  /** The newest date held after the refresh ("" when none). */
  latest: string;
}

const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
const CODE = /^[A-Z]{3}$/;
const DECIMAL = /^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

/** The answer, checked field by field: a row that is not a date, a code and a positive decimal
 * string is skipped. */
function rowsOf(body: unknown): RateRow[] {
  if (typeof body !== "object" || body === null || !Array.isArray((body as { days?: unknown }).days)) {
    throw new Error("GET exchange rates: the answer has no days");
  }
  const rows: RateRow[] = [];
  for (const day of (body as { days: unknown[] }).days) {
    if (typeof day !== "object" || day === null) continue;
    const { date, source, rates } = day as { date?: unknown; source?: unknown; rates?: unknown };
    if (typeof date !== "string" || !DATE.test(date) || typeof source !== "string" || source === "" || typeof rates !== "object" || rates === null) continue;
    for (const [currency, perEur] of Object.entries(rates)) {
      if (CODE.test(currency) && typeof perEur === "string" && DECIMAL.test(perEur) && !/^0(?:\.0+)?$/.test(perEur)) {
        rows.push({ currency, date, source, perEur });
      }
    }
  }
  return rows;
}

/**
 * Asks the server for the rates from the newest date held on (inclusive: a late correction of
 * that day arrives too; the whole history the first time) and stores them in one transaction.
 * Throws when the server cannot be reached or answers an error: the cache stays as it was.
 */
export async function refreshRates(handle: ClientDb, options: RefreshRatesOptions): Promise<RefreshRatesResult> {
  const db = dbOf(handle);
  const meta = (await db.meta.get("rates")) as RatesMeta | undefined;
  const base = options.url ?? "/api/v1/fx-rates";
  const url = meta?.latest ? `${base}?since=${meta.latest}` : base;
  const res = await options.fetch(url, { headers: { Accept: "application/json", ...options.headers }, credentials: "include", cache: "no-store" });
  if (!res.ok) throw new Error(`GET exchange rates: HTTP ${res.status}`);
  const rows = rowsOf(await res.json());
  let latest = meta?.latest ?? "";
  for (const r of rows) if (r.date > latest) latest = r.date;
  await db.transaction("rw", db.rates, db.meta, async () => {
    await db.rates.bulkPut(rows);
    const count = await db.rates.count();
    await db.meta.put({ key: "rates", latest, count, checkedAt: Date.now() } satisfies RatesMeta);
  });
  return { received: rows.length, latest };
}

/** The cached rates of some currencies (every date, every source), by currency then date. */
export async function readRates(db: LocalDb, currencies: readonly string[]): Promise<RateRow[]> {
  const out: RateRow[] = [];
  for (const c of [...new Set(currencies)].sort()) {
    // Dates and sources are strings: "" and "\uffff" bound every one of them.
    out.push(...(await db.rates.where("[currency+date+source]").between([c, "", ""], [c, "\uffff", "\uffff"], true, true).toArray()));
  }
  return out;
}

/**
 * The cached server rates of the currencies asked (EUR needs none), live: they follow a refresh at
 * once, in every tab; undefined while loading, [] when the device has none yet.
 */
export function useServerRates(currencies: readonly string[]): RateRow[] | undefined {
  const handle = useClientDb();
  const key = [...new Set(currencies)].filter((c) => c !== "EUR").sort().join(",");
  return useLiveQuery(async () => {
    if (!handle || key === "") return [];
    return readRates(dbOf(handle), key.split(","));
  }, [handle, key]);
}

/** When the cache was last checked with the server, its newest date and size; undefined while
 * loading, null before the first refresh. */
export function useRatesStatus(): { checkedAt: number; latest: string; count: number } | null | undefined {
  const handle = useClientDb();
  return useLiveQuery(async () => {
    if (!handle) return null;
    const meta = (await dbOf(handle).meta.get("rates")) as RatesMeta | undefined;
    return meta ? { checkedAt: meta.checkedAt, latest: meta.latest, count: meta.count } : null;
  }, [handle]);
}
