// The legal-structures tab's model: the forest of structures (who owns whom), the assets each one
// holds, the cycles a merge of two devices' valid offline edits can make, and the look-through
// figures (the person's effective share of a structure or an asset: the product of the ownership
// percentages along the chain of owners, times the asset's participation).
//
// Every walk here follows parent links with a visited set or a step bound, so a cycle (X owned by Y,
// Y owned by X) never recurses forever: structures in a cycle, and those below one, have no
// effective share (null) and are listed apart as a problem to fix.
import Decimal from "decimal.js";
import { lookThrough as chainLookThrough, structureShare } from "../../../assets/lookThrough";

/** What the model needs of a legal structure record. */
export interface StructureInput {
  id: string;
  name: string;
  structureType: string;
  country: string;
  state?: string | undefined;
  /** Percent of this structure its owner (the parent structure, or the person) holds; absent = 100. */
  ownershipPercentage?: string | undefined;
  parentStructureId?: string | undefined;
}

/** What the model needs of an asset record. */
export interface AssetInput {
  id: string;
  name: string;
  currency: string;
  /** The holder's share of the asset in percent. */
  participation: string;
  /** The whole asset's value (not only the holder's share). */
  currentValue?: string | undefined;
  legalStructureId?: string | undefined;
}

export interface StructureForest<S extends StructureInput = StructureInput, A extends AssetInput = AssetInput> {
  byId: ReadonlyMap<string, S>;
  /** Child structures of each structure, by name. */
  children: ReadonlyMap<string, readonly S[]>;
  /** Assets each structure holds, by name. */
  assets: ReadonlyMap<string, readonly A[]>;
  /** Structures owned by nobody we know (no parent, or the parent is gone), by name. */
  roots: readonly S[];
  /** Every cycle, each as the structures along the chain of owners (X, X's owner, …), starting at
   * the first by name. */
  cycles: readonly (readonly S[])[];
  /** Structures in a cycle. */
  inCycle: ReadonlySet<string>;
  /** Structures below a cycle (owned, through a chain, by a structure in a cycle). */
  belowCycle: ReadonlySet<string>;
  /** The person's effective share of each structure as a fraction (0–1); null in or below a cycle
   * (the tab shows assets-core's rounded figures; this one decides where there is a figure at all). */
  share: ReadonlyMap<string, Decimal | null>;
}

const HUNDRED = new Decimal(100);

/** A percent string as a fraction; absent or unreadable counts as the whole (100 %). */
export function fractionOf(percent: string | undefined): Decimal {
  if (percent === undefined || percent === "") return new Decimal(1);
  try {
    const value = new Decimal(percent);
    return value.isFinite() ? value.div(HUNDRED) : new Decimal(1);
  } catch {
    return new Decimal(1);
  }
}

function byName<T extends { name: string; id: string }>(collator: Intl.Collator) {
  return (a: T, b: T) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Builds the forest in O(n): every structure is visited a bounded number of times. */
export function buildForest<S extends StructureInput, A extends AssetInput>(
  structures: readonly S[],
  assets: readonly A[],
  language = "es",
): StructureForest<S, A> {
  const collator = new Intl.Collator(language, { sensitivity: "base", numeric: true });
  const order = byName<S>(collator);
  const byId = new Map(structures.map((s) => [s.id, s]));
  const parentOf = (s: S): S | undefined => {
    const p = s.parentStructureId;
    return p !== undefined && p !== s.id ? byId.get(p) : p === s.id ? s : undefined;
  };

  // Cycles: parent links form a functional graph; colour each walk and close it on a repeat.
  const state = new Map<string, 1 | 2>(); // 1: on the current walk, 2: done
  const inCycle = new Set<string>();
  const cycles: S[][] = [];
  for (const start of structures) {
    if (state.has(start.id)) continue;
    const walk: S[] = [];
    let node: S | undefined = start;
    while (node && !state.has(node.id)) {
      state.set(node.id, 1);
      walk.push(node);
      node = parentOf(node);
    }
    if (node && state.get(node.id) === 1) {
      const from = walk.indexOf(node);
      const cycle = walk.slice(from);
      for (const s of cycle) inCycle.add(s.id);
      // Start at the first by name, keep the chain's order.
      let first = 0;
      cycle.forEach((s, i) => {
        if (order(s, cycle[first]!) < 0) first = i;
      });
      cycles.push([...cycle.slice(first), ...cycle.slice(0, first)]);
    }
    for (const s of walk) state.set(s.id, 2);
  }
  cycles.sort((a, b) => order(a[0]!, b[0]!));

  const children = new Map<string, S[]>();
  const roots: S[] = [];
  for (const s of structures) {
    const parent = parentOf(s);
    if (!parent) roots.push(s);
    else if (parent.id !== s.id) {
      const list = children.get(parent.id) ?? [];
      list.push(s);
      children.set(parent.id, list);
    }
  }
  for (const list of children.values()) list.sort(order);
  roots.sort(order);

  // Effective shares, top-down from the roots (iterative; a cycle is never reached from a root).
  const share = new Map<string, Decimal | null>();
  const stack: [S, Decimal][] = roots.map((r) => [r, new Decimal(1)]);
  while (stack.length > 0) {
    const [s, above] = stack.pop()!;
    if (share.has(s.id)) continue;
    const mine = above.times(fractionOf(s.ownershipPercentage));
    share.set(s.id, mine);
    for (const c of children.get(s.id) ?? []) stack.push([c, mine]);
  }
  // Everything not reached from a root is in or below a cycle.
  const belowCycle = new Set<string>();
  for (const s of structures) {
    if (share.has(s.id)) continue;
    share.set(s.id, null);
    if (!inCycle.has(s.id)) belowCycle.add(s.id);
  }

  const held = new Map<string, A[]>();
  const assetOrder = byName<A>(collator);
  for (const a of assets) {
    if (a.legalStructureId === undefined || !byId.has(a.legalStructureId)) continue;
    const list = held.get(a.legalStructureId) ?? [];
    list.push(a);
    held.set(a.legalStructureId, list);
  }
  for (const list of held.values()) list.sort(assetOrder);

  return { byId, children, assets: held, roots, cycles, inCycle, belowCycle, share };
}

export interface LookThroughFigures {
  /** The person's effective share of the asset, in percent (exact decimal string), or null. */
  percent: string | null;
  /** The value of that share in the asset's currency (exact decimal string), or null when the
   * asset has no current value or the share is unknown (a cycle). */
  value: string | null;
}

/**
 * The person's effective share of an asset held by a structure, and its value: the figures are
 * assets-core's (pwa/src/assets/lookThrough.ts, 4 decimals half up); in or below a cycle there is
 * no chain to the person, so this tab gives none (null) until the cycle is fixed.
 */
export function lookThrough(forest: StructureForest, asset: AssetInput): LookThroughFigures {
  if (asset.legalStructureId !== undefined && forest.share.get(asset.legalStructureId) === null) return { percent: null, value: null };
  const figures = chainLookThrough(asset, forest.byId);
  return { percent: figures.sharePercent, value: figures.value ?? null };
}

/** A structure's effective share in percent (assets-core's structureShare), or null in or below a cycle. */
export function structurePercent(forest: StructureForest, id: string): string | null {
  return forest.share.get(id) ? structureShare(id, forest.byId).sharePercent : null;
}

/**
 * Whether making `parentId` the owner of `childId` would make a structure own itself: the parent is
 * the structure itself, or the structure is among the parent's owners (walking up at most once
 * around any existing cycle).
 */
export function wouldCycle(byId: ReadonlyMap<string, StructureInput>, childId: string, parentId: string | undefined): boolean {
  if (parentId === undefined || parentId === "") return false;
  const seen = new Set<string>();
  let node: string | undefined = parentId;
  while (node !== undefined && !seen.has(node)) {
    if (node === childId) return true;
    seen.add(node);
    node = byId.get(node)?.parentStructureId;
  }
  return false;
}

/** Every structure below `id` (its children, theirs, …), without `id` unless it is in a cycle. */
export function descendantsOf(forest: StructureForest, id: string): Set<string> {
  const out = new Set<string>();
  const stack = [...(forest.children.get(id) ?? [])];
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (out.has(s.id)) continue;
    out.add(s.id);
    stack.push(...(forest.children.get(s.id) ?? []));
  }
  return out;
}

/** Every asset held by `id` or a structure below it. */
export function assetsBelow<A extends AssetInput>(forest: StructureForest<StructureInput, A>, id: string): A[] {
  const ids = [id, ...descendantsOf(forest, id)];
  return ids.flatMap((s) => [...(forest.assets.get(s) ?? [])]);
}

/** The key of an asset's row in the tab's tree (structures' rows are keyed by their ids). */
export const assetRowKey = (id: string) => `asset:${id}`;

/**
 * The tree's rows in the order the tab shows them, depth first: each structure, the structures it
 * owns, then the assets it holds; the roots' trees, then each cycle's from its first structure.
 * Inside a cycle the walk stops where it came back to, as the tab's does. Iterative, like the rest
 * of this file: a chain of any length draws no stack.
 */
export function shownRowKeys(forest: StructureForest): string[] {
  const out: string[] = [];
  // A structure has one owner, so within a walk "already seen" is "on the path down".
  const seen = new Set<string>();
  type Step = { structure: StructureInput } | { assetsOf: string };
  const walk = (top: StructureInput) => {
    const stack: Step[] = [{ structure: top }];
    for (let step = stack.pop(); step !== undefined; step = stack.pop()) {
      if ("assetsOf" in step) {
        for (const a of forest.assets.get(step.assetsOf) ?? []) out.push(assetRowKey(a.id));
        continue;
      }
      const { id } = step.structure;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(id);
      stack.push({ assetsOf: id });
      const children = forest.children.get(id) ?? [];
      for (let i = children.length - 1; i >= 0; i--) stack.push({ structure: children[i]! });
    }
  };
  for (const r of forest.roots) walk(r);
  for (const cycle of forest.cycles) walk(cycle[0]!);
  return out;
}
