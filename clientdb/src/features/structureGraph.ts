// The ownership graph of legal structures (parentStructureId: the structure that owns this one).
// Pure functions over plain {id, parentStructureId}: the device refuses a parent that would make a
// structure own itself (directly or through a chain), and lists the cycles a merge of two valid
// offline edits can still produce, so screens show them as a problem to fix. Every walk visits each
// structure at most once, so nothing loops or grows when a cycle exists.

export interface StructureLink {
  id: string;
  parentStructureId?: string | undefined;
}

function parentMap(structures: Iterable<StructureLink>): Map<string, string | undefined> {
  const parents = new Map<string, string | undefined>();
  for (const s of structures) parents.set(s.id, s.parentStructureId);
  return parents;
}

/**
 * Whether giving `structureId` the parent `newParentId` makes a structure own itself: true when
 * the parent is the structure itself, or when walking up from the parent reaches the structure.
 * An existing cycle elsewhere above the parent does not count (the walk stops there).
 */
export function wouldCreateCycle(structures: Iterable<StructureLink>, structureId: string, newParentId: string | null | undefined): boolean {
  if (newParentId === null || newParentId === undefined) return false;
  if (newParentId === structureId) return true;
  const parents = parentMap(structures);
  const seen = new Set<string>();
  let at: string | undefined = newParentId;
  while (at !== undefined && !seen.has(at)) {
    if (at === structureId) return true;
    seen.add(at);
    at = parents.get(at);
  }
  return false;
}

/**
 * The cycles among the structures (after a merge of offline edits): each as the list of its ids,
 * starting from its smallest id and following the parent links; sorted by that first id.
 * A parent id that is not in the list ends a chain (no cycle).
 */
export function findCycles(structures: Iterable<StructureLink>): string[][] {
  const parents = parentMap(structures);
  const state = new Map<string, "walking" | "done">();
  const cycles: string[][] = [];
  for (const start of parents.keys()) {
    if (state.has(start)) continue;
    const path: string[] = [];
    let at: string | undefined = start;
    while (at !== undefined && parents.has(at) && !state.has(at)) {
      state.set(at, "walking");
      path.push(at);
      at = parents.get(at);
    }
    if (at !== undefined && state.get(at) === "walking") {
      const cycle = path.slice(path.indexOf(at));
      let min = 0;
      cycle.forEach((id, i) => {
        if (id < cycle[min]!) min = i;
      });
      cycles.push([...cycle.slice(min), ...cycle.slice(0, min)]);
    }
    for (const id of path) state.set(id, "done");
  }
  return cycles.sort((a, b) => (a[0]! < b[0]! ? -1 : a[0]! > b[0]! ? 1 : 0));
}

/** The ids of the structures that are part of a cycle. */
export function idsInCycles(structures: Iterable<StructureLink>): Set<string> {
  return new Set(findCycles(structures).flat());
}

/**
 * The chain of structures above `structureId` (itself first, then its parent, …, up to the top).
 * Stops before a structure seen already (`cycle: true`) or at a parent id that is not in the list
 * (`broken: true`, e.g. a deleted parent).
 */
export function ancestorChain(
  structures: Iterable<StructureLink> | Map<string, StructureLink>,
  structureId: string,
): { chain: string[]; cycle: boolean; broken: boolean } {
  const byId = structures instanceof Map ? structures : new Map([...structures].map((s) => [s.id, s]));
  const chain: string[] = [];
  const seen = new Set<string>();
  let at: string | undefined = structureId;
  while (at !== undefined) {
    if (seen.has(at)) return { chain, cycle: true, broken: false };
    const s = byId.get(at);
    if (!s) return { chain, cycle: false, broken: true };
    seen.add(at);
    chain.push(at);
    at = s.parentStructureId;
  }
  return { chain, cycle: false, broken: false };
}

/**
 * Children of each structure, for drawing the tree: key "" holds the roots (no parent, or a parent
 * that is not in the list). Structures caught in a cycle have no root above them: they are listed
 * under "" too (so the tree shows every structure once) and in `inCycle`.
 */
export function structureTree<T extends StructureLink>(structures: readonly T[]): { children: Map<string, T[]>; inCycle: Set<string> } {
  const ids = new Set(structures.map((s) => s.id));
  const inCycle = idsInCycles(structures);
  const children = new Map<string, T[]>([["", []]]);
  for (const s of structures) {
    const parent = s.parentStructureId;
    const key = parent !== undefined && ids.has(parent) && !inCycle.has(s.id) ? parent : "";
    const list = children.get(key);
    if (list) list.push(s);
    else children.set(key, [s]);
  }
  return { children, inCycle };
}
