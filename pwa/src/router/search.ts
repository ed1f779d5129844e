// The search parameters of the routes, read without zod: the router's code is in the first
// download of every page, and zod (about 26 KB gzip) there would put the dashboard's first load over
// its budget (issue 8: 250 KB gzip). Each parameter is optional and a bad value falls back to
// "absent", never an error: a hand-edited or stale link still opens the screen.
//
// TanStack Router hands validateSearch the query already JSON-parsed (`?n=3` → 3, `?ids=[1,2]` →
// [1, 2], `?a=true` → true), so each reader accepts the forms a person or the router writes.

/** Reads one parameter: its value, or undefined when it is absent or not acceptable. */
export type Param<T> = (raw: unknown) => T | undefined;

type Shape = Record<string, Param<unknown>>;
export type SearchOf<S extends Shape> = { [K in keyof S]?: Exclude<ReturnType<S[K]>, undefined> };

/** What a search reader returns (the route's typed search). */
export type Parsed<T extends { parse(search: Record<string, unknown>): unknown }> = ReturnType<T["parse"]>;

/** The reader of a route's search: every key of shape, read on its own; unknown keys are dropped. */
export function searchSchema<S extends Shape>(shape: S): { parse(search: Record<string, unknown>): SearchOf<S> } {
  return {
    parse(search) {
      const out: Record<string, unknown> = {};
      for (const [key, read] of Object.entries(shape)) {
        const value = read(search[key]);
        if (value !== undefined) out[key] = value;
      }
      return out as SearchOf<S>;
    },
  };
}

/** One of the given words. */
export function oneOf<const T extends readonly string[]>(...values: T): Param<T[number]> {
  return (raw) => (typeof raw === "string" && (values as readonly string[]).includes(raw) ? (raw as T[number]) : undefined);
}

/** A text of at most max characters (that matches pattern, when given). With coerce a number or a
 * boolean the router parsed (`?q=123`) is read back as the text typed. */
export function text(opts: { max?: number; pattern?: RegExp; coerce?: boolean } = {}): Param<string> {
  return (raw) => {
    let value = raw;
    if (opts.coerce && (typeof raw === "number" || typeof raw === "boolean")) value = String(raw);
    if (typeof value !== "string") return undefined;
    if (opts.max !== undefined && value.length > opts.max) return undefined;
    if (opts.pattern && !opts.pattern.test(value)) return undefined;
    return value;
  };
}

/** A positive whole number, from 12 or "12". */
export const positiveInt: Param<number> = (raw) => {
  if (typeof raw !== "number" && typeof raw !== "string") return undefined;
  const n = typeof raw === "number" ? raw : raw.trim() === "" ? NaN : Number(raw);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** `?new=1` (also "1"): a switch whose only value is 1. */
export const one: Param<1> = (raw) => (raw === 1 || raw === "1" ? 1 : undefined);

/** A boolean the router parsed (`?create=true`). */
export const bool: Param<boolean> = (raw) => (typeof raw === "boolean" ? raw : undefined);

/** `?overdue=1` (also `true`, as older links wrote it): a flag that is on (1) or absent. It reads
 * as 1 because the router writes the URL from the value read (true would show as `?overdue=true`). */
export const flag: Param<1> = (raw) => (raw === true || raw === 1 || raw === "1" || raw === "true" ? 1 : undefined);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A record id (a lower-case UUID, versions 1–8, as the devices write them). */
export const recordId: Param<string> = text({ pattern: UUID });

/** A list of up to max texts of at most itemMax characters, from `a,b` or the router's `["a","b"]`. */
export function textList(opts: { max: number; itemMax: number }): Param<string[]> {
  return (raw) => {
    const list = typeof raw === "string" ? raw.split(",").filter(Boolean) : raw;
    if (!Array.isArray(list) || list.length > opts.max) return undefined;
    return list.every((x) => typeof x === "string" && x.length <= opts.itemMax) ? (list as string[]) : undefined;
  };
}

/** The numeric ids of collapsed groups, from `?collIds=1,3` or `?collIds=[1,3]`: anything that is not a
 * positive whole number is dropped; sorted, without repeats; at most 1,000. */
export const idList: Param<number[]> = (raw) => {
  if (raw === undefined) return undefined;
  const list = typeof raw === "string" ? raw.split(",") : typeof raw === "number" ? [raw] : Array.isArray(raw) ? raw : [];
  const ids = list.map((x) => Number(x)).filter((n) => Number.isSafeInteger(n) && n > 0);
  const unique = [...new Set(ids)].sort((a, b) => a - b);
  return unique.length <= 1000 ? unique : undefined;
};
