// The enumerations on the device: a local-only cache of GET /api/v1/enums/ (every value of every
// type, inactive ones too, so old records keep their labels), refreshed when online with the
// answer's ETag (a 304 costs no body), and read by the pickers through live queries, so every
// picker works offline once the device has refreshed once.
import { enumerationSchema, type Enumeration } from "@patrimonio/shared-schema";
import { useLiveQuery } from "dexie-react-hooks";
import { dbOf, type ClientDb } from "./clientdb";
import { useClientDb } from "./hooks";
import type { EnumRow, EnumsMeta, LocalDb } from "./db";

/** One value as the pickers read it; parentId 0 at the top level. */
export type EnumValue = Omit<Enumeration, "parentId"> & { parentId: number };

export interface RefreshEnumsOptions {
  /** The fetch to use (the window's in the PWA; Node's with a Cookie header in tests). */
  fetch: typeof fetch;
  /** The list's URL; "/api/v1/enums/" (same origin) by default. */
  url?: string;
  /** Extra request headers (Cookie in Node tests, Accept-Language). */
  headers?: Record<string, string>;
}

export interface RefreshEnumsResult {
  /** true when the cache was replaced, false when the server said 304 (nothing changed). */
  changed: boolean;
  count: number;
}

function toRow(v: Enumeration): EnumRow {
  return { ...v, parentId: v.parentId ?? 0 };
}

/**
 * Fetches the enumerations (If-None-Match: the cached ETag) and replaces the cache in one
 * transaction when they changed. Values the shared schema refuses are skipped. Throws when the
 * server cannot be reached or answers an error: the cache stays as it was.
 */
export async function refreshEnums(handle: ClientDb, options: RefreshEnumsOptions): Promise<RefreshEnumsResult> {
  const db = dbOf(handle);
  const meta = (await db.meta.get("enums")) as EnumsMeta | undefined;
  const headers: Record<string, string> = { Accept: "application/json", ...options.headers };
  if (meta?.etag) headers["If-None-Match"] = meta.etag;
  const res = await options.fetch(options.url ?? "/api/v1/enums/", { headers, credentials: "include", cache: "no-store" });
  if (res.status === 304 && meta) {
    await db.meta.put({ ...meta, checkedAt: Date.now() });
    return { changed: false, count: meta.count };
  }
  if (!res.ok) throw new Error(`GET enumerations: HTTP ${res.status}`);
  const body = (await res.json()) as unknown;
  if (!Array.isArray(body)) throw new Error("GET enumerations: the answer is not a list");
  const rows: EnumRow[] = [];
  for (const item of body) {
    const parsed = enumerationSchema.safeParse(item);
    if (parsed.success) rows.push(toRow(parsed.data));
  }
  const next: EnumsMeta = { key: "enums", etag: res.headers.get("ETag") ?? "", count: rows.length, checkedAt: Date.now() };
  await db.transaction("rw", db.enums, db.meta, async () => {
    await db.enums.clear();
    await db.enums.bulkPut(rows);
    await db.meta.put(next);
  });
  return { changed: true, count: rows.length };
}

export interface EnumQuery {
  /** Only values of these levels; with parentId, its descendants at any depth (e.g. Spain's
   * provinces under their communities). */
  levels?: readonly string[];
  /** Also deactivated values (admin screens, showing an old record's value). */
  includeInactive?: boolean;
  /** Only values without children (e.g. the subdivisions a form offers: Spain's 50 provinces plus
   * Ceuta and Melilla). */
  leavesOnly?: boolean;
  /** With parentId: every descendant (any depth), not only the children. */
  descendants?: boolean;
}

function byOrder(a: EnumRow, b: EnumRow): number {
  return a.order - b.order || a.id - b.id;
}

/** Reads the cached values of a type (under parentId when given). */
export async function readEnums(db: LocalDb, type: string, parentId?: number, query: EnumQuery = {}): Promise<EnumValue[]> {
  const all = await db.enums.where("type").equals(type).toArray();
  let rows = all;
  if (parentId !== undefined) {
    if (query.levels?.length || query.leavesOnly || query.descendants) {
      // Descendants at any depth (the rows of other types in between, e.g. none today, are not
      // walked: subdivisions hang under subdivisions or the country).
      const under = new Set<number>([parentId]);
      const children = new Map<number, EnumRow[]>();
      for (const r of all) children.set(r.parentId, [...(children.get(r.parentId) ?? []), r]);
      const out: EnumRow[] = [];
      const walk = (id: number) => {
        for (const c of children.get(id) ?? []) {
          if (under.has(c.id)) continue;
          under.add(c.id);
          out.push(c);
          walk(c.id);
        }
      };
      walk(parentId);
      rows = out;
    } else {
      rows = all.filter((r) => r.parentId === parentId);
    }
  }
  if (query.levels?.length) rows = rows.filter((r) => query.levels!.includes(r.level));
  if (query.leavesOnly) {
    const parents = new Set(all.map((r) => r.parentId));
    rows = rows.filter((r) => !parents.has(r.id));
  }
  if (!query.includeInactive) rows = rows.filter((r) => r.active);
  return rows.sort(byOrder);
}

/**
 * The cached values of a type, live (they follow a refresh at once, in every tab); undefined
 * while loading, [] when the device has none yet. parentId: only its children (or descendants,
 * see EnumQuery).
 */
export function useEnums(type: string | undefined, parentId?: number, query: EnumQuery = {}): EnumValue[] | undefined {
  const handle = useClientDb();
  const levels = query.levels?.join(",") ?? "";
  const { includeInactive = false, leavesOnly = false, descendants = false } = query;
  return useLiveQuery(
    async () => {
      if (!handle || !type) return [];
      return readEnums(dbOf(handle), type, parentId, { levels: levels ? levels.split(",") : [], includeInactive, leavesOnly, descendants });
    },
    [handle, type, parentId, levels, includeInactive, leavesOnly, descendants],
  );
}

/** One cached value by id (inactive ones too: an old record's label), live; null when unknown. */
export function useEnum(id: number | undefined): EnumValue | null | undefined {
  const handle = useClientDb();
  return useLiveQuery(async () => {
    if (!handle || id === undefined) return null;
    return (await dbOf(handle).enums.get(id)) ?? null;
  }, [handle, id]);
}

/** One cached value by type and code (e.g. a country by its ISO code), live; null when unknown. */
export function useEnumByCode(type: string, code: string | undefined): EnumValue | null | undefined {
  const handle = useClientDb();
  return useLiveQuery(async () => {
    if (!handle || !code) return null;
    return (await dbOf(handle).enums.where("[type+code]").equals([type, code]).first()) ?? null;
  }, [handle, type, code]);
}

/** The label of a value in a language ("en" → English, anything else Spanish). */
export function enumLabel(value: Pick<EnumValue, "labels">, language: string): string {
  return language.startsWith("en") ? value.labels.en : value.labels.es;
}

/** When the cache was last checked with the server and how many values it holds; undefined
 * while loading, null before the first refresh. */
export function useEnumsStatus(): { checkedAt: number; count: number } | null | undefined {
  const handle = useClientDb();
  return useLiveQuery(async () => {
    if (!handle) return null;
    const meta = (await dbOf(handle).meta.get("enums")) as EnumsMeta | undefined;
    return meta ? { checkedAt: meta.checkedAt, count: meta.count } : null;
  }, [handle]);
}
