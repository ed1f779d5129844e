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
  /** The currencies the device converts (EUR needs none). Absent: every currency the server has. */
  currencies?: readonly string[];
  /** The earliest date a value to convert has: the rates from the last one on or before it are
   * enough ("the rate on or before a date"). Absent: the whole history of those currencies. */
  from?: string;
}

export interface RefreshRatesResult {
  /** Rates received (new or re-sent). */
  received: number;
  /** The newest date held after the refresh ("" when none). */
  latest: string;
  /** The requests made (their query strings), for tests and diagnostics. */
  asked: string[];
}

/** What the cache holds of each currency: every rate from `from` on ("" = the whole history),
 * plus the last one before it, up to `latest` (the newest date the server had when asked). "*" is
 * every currency (a refresh without a list). */
type Coverage = Record<string, { from: string; latest: string }>;
type CoveredMeta = RatesMeta & { covered?: Coverage };

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

/** Whether what is held of a currency serves values dated from `from` on. */
function serves(held: { from: string } | undefined, from: string | undefined): boolean {
  return held !== undefined && (held.from === "" || (from !== undefined && held.from <= from));
}

/**
 * Asks the server for the rates the device lacks and stores them in one transaction:
 * - with `currencies`, only theirs: a currency already held (from early enough) from the newest
 *   date held on (inclusive: a late correction of that day arrives too); a new one (or one needed
 *   further back) from `from` with its last rate before it, or its whole history without `from`;
 * - without, every currency from the newest date held (the whole table the first time).
 * Throws when the server cannot be reached or answers an error: the cache stays as it was.
 */
export async function refreshRates(handle: ClientDb, options: RefreshRatesOptions): Promise<RefreshRatesResult> {
  const db = dbOf(handle);
  const meta = (await db.meta.get("rates")) as CoveredMeta | undefined;
  const covered: Coverage = { ...meta?.covered };
  if (meta?.latest && !meta.covered) covered["*"] = { from: "", latest: meta.latest }; // a cache from before the lists
  const base = options.url ?? "/api/v1/fx-rates";
  // The requests: query string → the currencies it brings and what they will cover.
  const requests = new Map<string, { currencies: string[]; from: string }>();
  const want = (query: string, currency: string, from: string) => {
    const r = requests.get(query);
    if (r) r.currencies.push(currency);
    else requests.set(query, { currencies: [currency], from });
  };
  if (!options.currencies) {
    const all = covered["*"];
    want(all ? `since=${all.latest}` : "", "*", all?.from ?? "");
  } else {
    const from = options.from !== undefined && DATE.test(options.from) ? options.from : undefined;
    for (const c of [...new Set(options.currencies)].filter((c) => CODE.test(c) && c !== "EUR").sort()) {
      const held = serves(covered[c], from) ? covered[c] : serves(covered["*"], from) ? covered["*"] : undefined;
      if (held) want(`since=${held.latest}`, c, held.from);
      else want(from ? `since=${from}` : "", c, from ?? "");
    }
  }
  const rows: RateRow[] = [];
  const asked: string[] = [];
  const after: Coverage = {};
  for (const [query, { currencies, from }] of requests) {
    const list = currencies.includes("*") ? "" : `currencies=${currencies.join(",")}`;
    const qs = [list, query].filter(Boolean).join("&");
    asked.push(qs);
    const res = await options.fetch(qs ? `${base}?${qs}` : base, { headers: { Accept: "application/json", ...options.headers }, credentials: "include", cache: "no-store" });
    if (!res.ok) throw new Error(`GET exchange rates: HTTP ${res.status}`);
    const body: unknown = await res.json();
    const got = rowsOf(body);
    rows.push(...got);
    const answered = (body as { latest?: unknown }).latest;
    const since = query.startsWith("since=") ? query.slice(6) : "";
    const newest = typeof answered === "string" && DATE.test(answered) && answered > since ? answered : since;
    for (const c of currencies) after[c] = { from, latest: newest };
  }
  let latest = meta?.latest ?? "";
  for (const r of rows) if (r.date > latest) latest = r.date;
  await db.transaction("rw", db.rates, db.meta, async () => {
    await db.rates.bulkPut(rows);
    const count = await db.rates.count();
    // Re-read: another tab may have covered more meanwhile.
    const now = (await db.meta.get("rates")) as CoveredMeta | undefined;
    const merged: Coverage = { ...covered, ...now?.covered };
    for (const [c, cov] of Object.entries(after)) {
      // Held from the earlier of both starts (an incremental request kept the old start; a request
      // further back starts earlier), up to the later of both ends.
      const old = merged[c];
      const keepsStart = serves(old, cov.from === "" ? undefined : cov.from);
      merged[c] = { from: old && keepsStart ? old.from : cov.from, latest: old && old.latest > cov.latest ? old.latest : cov.latest };
    }
    await db.meta.put({ key: "rates", latest: now?.latest && now.latest > latest ? now.latest : latest, count, checkedAt: Date.now(), covered: merged } as CoveredMeta);
  });
  return { received: rows.length, latest, asked };
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
 * once, in every tab; undefined while loading, [] when the device has none yet. When other
 * currencies are asked, undefined again until they are read: a live query keeps answering its
 * previous result meanwhile, and the previous currencies' rates read as "no rate" for a new one
 * (the dashboard listed its amounts as missing a rate, and remembered that).
 */
export function useServerRates(currencies: readonly string[]): RateRow[] | undefined {
  const handle = useClientDb();
  const key = [...new Set(currencies)].filter((c) => c !== "EUR").sort().join(",");
  const read = useLiveQuery(async () => {
    if (!handle || key === "") return { handle, key, rows: [] as RateRow[] };
    return { handle, key, rows: await readRates(dbOf(handle), key.split(",")) };
  }, [handle, key]);
  return read && read.key === key && read.handle === handle ? read.rows : undefined;
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
