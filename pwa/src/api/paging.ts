// Paged lists of the server (GET /api/v1/admin/users): the page is the JSON array, and its place in
// the whole list comes in headers — X-Total-Count (how many match in all) and a Link header whose
// rel="next" URL holds the next page's offset and limit (RFC 8288).

/** Where a page starts and how long it is. */
export interface PageWindow {
  offset: number;
  limit: number;
}

/** One page of a list, with what the headers say about the rest. */
export interface Page<T> {
  items: T[];
  /** How many items match in all (X-Total-Count); null when the server did not say. */
  total: number | null;
  offset: number;
  limit: number;
  /** The next page, from the Link header; null on the last page. */
  next: PageWindow | null;
  /** The page before, or null on the first. */
  previous: PageWindow | null;
}

function nonNegativeInteger(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

/**
 * The URL of the link with the given relation in a Link header, or null. Handles several links
 * separated by commas, quoted or bare rel values, and several relations in one rel ("next last").
 */
export function linkWithRel(header: string | null, rel: string): string | null {
  if (!header) return null;
  // <url>; param=value; param="value", <url>; …  — commas inside <…> belong to the URL.
  const pattern = /<([^>]*)>\s*((?:;\s*[^;,]*)*)/g;
  for (const match of header.matchAll(pattern)) {
    const url = match[1] ?? "";
    const params = match[2] ?? "";
    for (const param of params.split(";")) {
      const [name, ...rest] = param.split("=");
      if (name?.trim().toLowerCase() !== "rel") continue;
      const value = rest.join("=").trim().replace(/^"(.*)"$/, "$1");
      if (value.toLowerCase().split(/\s+/).includes(rel.toLowerCase())) return url;
    }
  }
  return null;
}

/** The offset and limit of a page URL (its query string), or null when it names no offset. */
export function windowOfUrl(url: string, fallbackLimit: number): PageWindow | null {
  let query: URLSearchParams;
  try {
    query = new URL(url, "http://link.invalid").searchParams;
  } catch {
    return null;
  }
  const offset = nonNegativeInteger(query.get("offset"));
  if (offset === null) return null;
  const limit = nonNegativeInteger(query.get("limit"));
  return { offset, limit: limit !== null && limit > 0 ? limit : fallbackLimit };
}

/** Reads a page's place in the list from the answer's headers. `asked` is the window requested. */
export function pageFromHeaders<T>(items: T[], headers: Headers, asked: PageWindow): Page<T> {
  const total = nonNegativeInteger(headers.get("X-Total-Count"));
  const nextUrl = linkWithRel(headers.get("Link"), "next");
  const next = nextUrl === null ? null : windowOfUrl(nextUrl, asked.limit);
  const previous = asked.offset > 0 ? { offset: Math.max(0, asked.offset - asked.limit), limit: asked.limit } : null;
  return { items, total, offset: asked.offset, limit: asked.limit, next, previous };
}
