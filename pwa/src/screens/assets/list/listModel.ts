// The asset lists' view model, pure (no React): which rows a grouped list shows once some groups
// are collapsed, and how the collapsed groups' ids (`collIds` in the URL) change when the reader
// collapses or expands one group or all of them.

/** One group of a list (a class on /assets/, a category on /assets/classes/{id}/). */
export interface ListGroup<Item> {
  /** The group's numeric id (class 1–8, category id): what `collIds` keeps. */
  id: number;
  items: readonly Item[];
}

/** A row of the flattened list: a group's header, or one of its items. */
export type ListRow<Item, Group extends ListGroup<Item>> =
  | { kind: "group"; key: string; group: Group; collapsed: boolean }
  | { kind: "item"; key: string; item: Item; group: Group };

/**
 * The rows a grouped list shows, in order: each group's header, then its items unless the group is
 * collapsed. With `headers: false` (a single group, the category screen) only the items.
 */
export function flattenGroups<Item, Group extends ListGroup<Item>>(
  groups: readonly Group[],
  collapsed: ReadonlySet<number>,
  itemKey: (item: Item) => string,
  options: { headers?: boolean } = {},
): ListRow<Item, Group>[] {
  const headers = options.headers ?? true;
  const rows: ListRow<Item, Group>[] = [];
  for (const group of groups) {
    const isCollapsed = headers && collapsed.has(group.id);
    if (headers) rows.push({ kind: "group", key: `group:${group.id}`, group, collapsed: isCollapsed });
    if (isCollapsed) continue;
    for (const item of group.items) rows.push({ kind: "item", key: `item:${itemKey(item)}`, item, group });
  }
  return rows;
}

/** Where the ids of category codes the device's enumeration cache does not know yet start: above
 * every real id (admins' values start at 1 000 000) and below Number.MAX_SAFE_INTEGER. */
export const UNKNOWN_GROUP_ID_BASE = 10_000_000_000;

/**
 * Stable ids for groups of codes the enumeration cache does not know yet (an admin's new category
 * that reached the device through sync before the enumerations did): a hash of the code above
 * UNKNOWN_GROUP_ID_BASE, so the group collapses like the others, keeps its state in `collIds` across
 * visits, and two such groups never share a React key (`taken`: ids already on the page; a clash
 * takes the next free id).
 */
export function unknownGroupId(code: string, taken: Set<number>): number {
  let hash = 0x811c9dc5;
  for (const ch of code) {
    hash ^= ch.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  let id = UNKNOWN_GROUP_ID_BASE + hash;
  while (taken.has(id)) id++;
  taken.add(id);
  return id;
}

/** Sorted, without repeats: the form `collIds` is kept in (the route's schema parses the same). */
export function normaliseIds(ids: Iterable<number>): number[] {
  return [...new Set(ids)].filter((n) => Number.isSafeInteger(n) && n > 0).sort((a, b) => a - b);
}

/** `collIds` after the reader collapses or expands group `id`; undefined when nothing stays collapsed. */
export function toggleCollapsed(collIds: readonly number[] | undefined, id: number): number[] | undefined {
  const current = new Set(collIds ?? []);
  if (current.has(id)) current.delete(id);
  else current.add(id);
  const next = normaliseIds(current);
  return next.length > 0 ? next : undefined;
}

/**
 * `collIds` after "collapse all": every group shown now, plus the collapsed ids of groups the search
 * hides at the moment (they stay collapsed when the search is cleared).
 */
export function collapseAll(collIds: readonly number[] | undefined, shownGroupIds: readonly number[]): number[] | undefined {
  const next = normaliseIds([...(collIds ?? []), ...shownGroupIds]);
  return next.length > 0 ? next : undefined;
}

/** `collIds` after "expand all": the groups shown now open; others keep their state. */
export function expandAll(collIds: readonly number[] | undefined, shownGroupIds: readonly number[]): number[] | undefined {
  const shown = new Set(shownGroupIds);
  const next = normaliseIds((collIds ?? []).filter((id) => !shown.has(id)));
  return next.length > 0 ? next : undefined;
}

/** Whether every shown group is collapsed / none is (to enable "collapse all" / "expand all"). */
export function collapsedState(collIds: readonly number[] | undefined, shownGroupIds: readonly number[]): { all: boolean; none: boolean } {
  const set = new Set(collIds ?? []);
  const collapsedShown = shownGroupIds.filter((id) => set.has(id)).length;
  return { all: shownGroupIds.length > 0 && collapsedShown === shownGroupIds.length, none: collapsedShown === 0 };
}

/** The items by key, each list in the items' order (one pass; no totals: the browser adds them). */
export function bucket<Item, Key>(items: readonly Item[], keyOf: (item: Item) => Key): Map<Key, Item[]> {
  const by = new Map<Key, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = by.get(key);
    if (list) list.push(item);
    else by.set(key, [item]);
  }
  return by;
}
