// Per-field last-writer-wins merge with tombstones and conflict records: the device half of
// sync/merge.go, rule for rule. Both run sync/testdata/merge_vectors.json; sync/MERGE.md explains
// the rules and what they guarantee.
import { StampError, parseStamp, stampNode } from "./hlc";

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** put: write fields (a create writes them all); delete: tombstone; restore: undelete (and maybe
 * write fields); resolve: close conflicts without writing. */
export type Op = "put" | "delete" | "restore" | "resolve";

/** One change of one record made on one device; all its field writes share its stamp. */
export interface Mutation {
  op: Op;
  stamp: string;
  /** The client (device) id that made it. */
  author: string;
  /** Values written (put, restore). */
  fields?: Record<string, JsonValue>;
  /** The record's clocks as the device saw them when making the change (send the local record's
   * `clocks`). A field missing here had no value on the device. */
  base?: Record<string, string>;
  /** Conflicts this mutation closes (restoring a losing value, or dismissing it). */
  resolves?: ConflictKey[];
  /** Set by the server only: it applied this mutation for the first time after a later one of the
   * same node to the same record, so every replica merges it as new (MERGE.md, rule 7). */
  late?: boolean;
}

export interface ConflictKey {
  field: string;
  stamp: string;
}

/** A field write that lost to a concurrent write of the same field. */
export interface Conflict {
  field: string;
  value: JsonValue;
  stamp: string;
  author: string;
}

/** The record's life register: the latest delete or restore. */
export interface Life {
  stamp: string;
  author: string;
  deleted: boolean;
  /** The deleting mutation's base (what the deleter saw); absent after a restore. */
  base?: Record<string, string>;
}

/** One record as the merge sees it (the same JSON shape as Go's RecordState). */
export interface RecordState {
  fields: Record<string, JsonValue>;
  clocks: Record<string, string>;
  authors: Record<string, string>;
  life?: Life;
  /** Newest stamp applied from each node: what makes re-applying a mutation a no-op. */
  seen: Record<string, string>;
  /** Stamps of the late mutations applied below their node's `seen`, sorted (absent when none):
   * what makes re-applying one of them a no-op. */
  late?: string[];
  /** Open conflicts, sorted by field then stamp. */
  conflicts: Conflict[];
}

/** What applying a mutation changed. */
export interface Effect {
  /** The mutation (or a later one from its node; for a `late` one, itself) was applied before:
   * registers still merge, but no conflict is opened or closed. */
  duplicate: boolean;
  /** Fields whose winning write changed, sorted. */
  changed: string[];
  /** The record was deleted or restored. */
  lifeChanged: boolean;
  opened: Conflict[];
  closed: Conflict[];
}

/** An invalid mutation (the Go side's EINVALID). */
export class MergeError extends Error {
  readonly code = "invalid";
  constructor(message: string) {
    super(message);
    this.name = "MergeError";
  }
}

export function emptyRecordState(): RecordState {
  return { fields: {}, clocks: {}, authors: {}, seen: {}, conflicts: [] };
}

// ---------------------------------------------------------------- JSON values

function own<V>(record: Record<string, V> | undefined, key: string): V | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Compares strings by Unicode code point (as Go compares UTF-8 bytes), not by UTF-16 unit. */
export function compareStrings(a: string, b: string): -1 | 0 | 1 {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (astral code points) sort after every other BMP code unit.
    x = x >= 0xd800 && x <= 0xdfff ? x + 0x2000 : x >= 0xe000 ? x - 0x800 : x;
    y = y >= 0xd800 && y <= 0xdfff ? y + 0x2000 : y >= 0xe000 ? y - 0x800 : y;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function sortedKeys(o: object): string[] {
  return Object.keys(o).sort(compareStrings);
}

const RANK_NULL = 0;
const RANK_BOOL = 1;
const RANK_NUMBER = 2;
const RANK_STRING = 3;
const RANK_ARRAY = 4;
const RANK_OBJECT = 5;
const RANK_INVALID = 6;

function rank(v: unknown): number {
  if (v === null) return RANK_NULL;
  switch (typeof v) {
    case "boolean":
      return RANK_BOOL;
    case "number":
      return Number.isFinite(v) ? RANK_NUMBER : RANK_INVALID;
    case "string":
      return RANK_STRING;
    case "object":
      if (Array.isArray(v)) return RANK_ARRAY;
      return Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null ? RANK_OBJECT : RANK_INVALID;
  }
  return RANK_INVALID;
}

function validValue(v: unknown): boolean {
  const r = rank(v);
  if (r === RANK_ARRAY) return (v as unknown[]).every(validValue);
  if (r === RANK_OBJECT) return Object.values(v as object).every(validValue);
  return r !== RANK_INVALID;
}

/** The total order on JSON values shared with Go: null < false < true < numbers < strings (by code
 * point) < arrays (element-wise, then length) < objects (entries sorted by key, then count). */
export function compareValues(a: JsonValue, b: JsonValue): -1 | 0 | 1 {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case RANK_BOOL:
    case RANK_NUMBER:
      return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
    case RANK_STRING:
      return compareStrings(a as string, b as string);
    case RANK_ARRAY: {
      const xa = a as JsonValue[];
      const xb = b as JsonValue[];
      for (let i = 0; i < xa.length && i < xb.length; i++) {
        const c = compareValues(xa[i] as JsonValue, xb[i] as JsonValue);
        if (c !== 0) return c;
      }
      return xa.length < xb.length ? -1 : xa.length > xb.length ? 1 : 0;
    }
    case RANK_OBJECT: {
      const oa = a as Record<string, JsonValue>;
      const ob = b as Record<string, JsonValue>;
      const ka = sortedKeys(oa);
      const kb = sortedKeys(ob);
      for (let i = 0; i < ka.length && i < kb.length; i++) {
        const keyA = ka[i] as string;
        const keyB = kb[i] as string;
        const c = compareStrings(keyA, keyB) || compareValues(oa[keyA] as JsonValue, ob[keyB] as JsonValue);
        if (c !== 0) return c;
      }
      return ka.length < kb.length ? -1 : ka.length > kb.length ? 1 : 0;
    }
  }
  return 0;
}

export function equalValues(a: JsonValue, b: JsonValue): boolean {
  return compareValues(a, b) === 0;
}

// ---------------------------------------------------------------- validation

/** An ASCII identifier of 1 to 64 characters starting with a letter (every schema field name is). */
export function validFieldName(f: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(f);
}

function checkStamp(s: unknown, what: string): void {
  if (typeof s !== "string") throw new MergeError(`Invalid ${what}: not a stamp.`);
  try {
    parseStamp(s);
  } catch (err) {
    if (err instanceof StampError) throw new MergeError(`Invalid ${what}: ${err.message}`);
    throw err;
  }
}

const OPS: ReadonlySet<string> = new Set(["put", "delete", "restore", "resolve"]);

/** Throws MergeError unless the mutation is well formed (the same checks as Go's Mutation.Validate). */
export function validateMutation(m: Mutation): void {
  if (!OPS.has(m.op)) {
    throw new MergeError(`Unknown mutation operation ${JSON.stringify(m.op)}.`);
  }
  checkStamp(m.stamp, "mutation stamp");
  if (typeof m.author !== "string" || m.author === "") throw new MergeError("A mutation needs its author's client id.");
  const fields = m.fields === undefined ? [] : Object.keys(m.fields);
  if (m.op === "put" && fields.length === 0) throw new MergeError("A put must write at least one field.");
  if ((m.op === "delete" || m.op === "resolve") && fields.length > 0) throw new MergeError(`A ${m.op} cannot write fields.`);
  if (m.op === "resolve" && (m.resolves === undefined || m.resolves.length === 0)) {
    throw new MergeError("A resolve must name at least one conflict.");
  }
  for (const f of fields) {
    if (!validFieldName(f)) throw new MergeError(`Invalid field name ${JSON.stringify(f)}.`);
    if (!validValue(own(m.fields, f))) throw new MergeError(`The value of field ${JSON.stringify(f)} is not a JSON value.`);
  }
  for (const [f, b] of Object.entries(m.base ?? {})) {
    if (!validFieldName(f)) throw new MergeError(`Invalid field name ${JSON.stringify(f)} in base.`);
    checkStamp(b, `base stamp of field ${JSON.stringify(f)}`);
  }
  for (const k of m.resolves ?? []) {
    if (typeof k.field !== "string" || !validFieldName(k.field)) throw new MergeError("Invalid conflict key in resolves.");
    checkStamp(k.stamp, "conflict key stamp");
  }
}

// ---------------------------------------------------------------- merge

function compareKeys(a: ConflictKey, b: ConflictKey): number {
  return compareStrings(a.field, b.field) || compareStrings(a.stamp, b.stamp);
}

function sortConflicts(cs: Conflict[]): Conflict[] {
  return cs.sort(compareKeys);
}

/** Whether the record is deleted (its latest life event is a delete). */
export function isDeleted(state: RecordState): boolean {
  return state.life?.deleted === true;
}

/** For a deleted record, the fields whose current write the deleter did not see (another device's
 * write not in the delete's base): "deleted while you edited it". Empty when not deleted. */
export function unseenByDelete(state: RecordState): string[] {
  const life = state.life;
  if (life === undefined || !life.deleted) return [];
  return sortedKeys(state.clocks).filter((f) => {
    const base = own(life.base, f);
    return own(state.authors, f) !== life.author && base !== own(state.clocks, f);
  });
}

/** The conflicts to show: those whose value differs from the field's current value. */
export function shownConflicts(state: RecordState): Conflict[] {
  return state.conflicts.filter((c) => !equalValues(c.value, own(state.fields, c.field) ?? null));
}

function copyRecord<V>(r: Record<string, V>): Record<string, V> {
  return Object.assign({}, r);
}

/** Where conflict key k is, or would go, in s.conflicts (sorted), and whether it is there. */
function findConflict(s: RecordState, k: ConflictKey): { index: number; found: boolean } {
  let lo = 0;
  let hi = s.conflicts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareKeys(s.conflicts[mid] as Conflict, k) < 0) lo = mid + 1;
    else hi = mid;
  }
  const at = s.conflicts[lo];
  return { index: lo, found: at !== undefined && at.field === k.field && at.stamp === k.stamp };
}

/** Opens conflict c in s (once). */
function openConflict(s: RecordState, effect: Effect, c: Conflict): void {
  const { index, found } = findConflict(s, c);
  if (found) return;
  s.conflicts.splice(index, 0, c);
  effect.opened.push(c);
}

/** Closes the conflict k of s, if open. */
function closeConflict(s: RecordState, effect: Effect, k: ConflictKey): void {
  const { index, found } = findConflict(s, k);
  if (!found) return;
  effect.closed.push(...s.conflicts.splice(index, 1));
}

/** m's write of f wins: f takes v, with m's stamp and author. */
function setField(s: RecordState, effect: Effect, m: Mutation, f: string, v: JsonValue): void {
  s.fields[f] = v;
  s.clocks[f] = m.stamp;
  s.authors[f] = m.author;
  effect.changed.push(f);
}

/**
 * Merges one mutation into a record state and returns the new state (the input is not modified)
 * with what changed. Throws MergeError, without changing anything, for an invalid mutation. The
 * rules are Go's RecordState.Apply (sync/MERGE.md).
 */
export function applyMutation(state: RecordState, m: Mutation): { state: RecordState; effect: Effect } {
  validateMutation(m);
  const s: RecordState = {
    fields: copyRecord(state.fields),
    clocks: copyRecord(state.clocks),
    authors: copyRecord(state.authors),
    seen: copyRecord(state.seen),
    conflicts: state.conflicts.slice(),
  };
  if (state.life !== undefined) s.life = state.life;
  if (state.late !== undefined) s.late = state.late;
  const effect: Effect = { duplicate: false, changed: [], lifeChanged: false, opened: [], closed: [] };

  const node = stampNode(m.stamp);
  const last = own(s.seen, node);
  if (last === undefined || m.stamp > last) s.seen[node] = m.stamp;
  else if (m.late === true && m.stamp < last && !(s.late ?? []).includes(m.stamp)) {
    // A first application that comes after its node's later mutation: new, once.
    s.late = [...(s.late ?? []), m.stamp].sort();
  } else effect.duplicate = true;
  const track = !effect.duplicate;

  if (m.op === "delete" || m.op === "restore") {
    const deleted = m.op === "delete";
    const next: Life = { stamp: m.stamp, author: m.author, deleted };
    if (deleted && m.base !== undefined && Object.keys(m.base).length > 0) next.base = copyRecord(m.base);
    const cur = s.life;
    let wins = true;
    if (cur !== undefined) {
      if (m.stamp < cur.stamp) wins = false;
      else if (m.stamp === cur.stamp) {
        // Same stamp: the same mutation again, unless a client broke the protocol. Decide
        // deterministically anyway: a delete beats a restore, then the greater author wins.
        if (cur.deleted === deleted && cur.author === m.author) wins = false;
        else if (cur.deleted !== deleted) wins = !cur.deleted;
        else wins = compareStrings(m.author, cur.author) > 0;
      }
    }
    if (wins) {
      s.life = next;
      effect.lifeChanged = true;
    }
  }

  for (const f of sortedKeys(m.fields ?? {})) {
    const v = own(m.fields, f) as JsonValue;
    const base = own(m.base, f);
    if (track && s.conflicts.length > 0) {
      // The author supersedes its own earlier losing values of f, and a write made on top of a
      // lost value supersedes that value knowingly.
      s.conflicts = s.conflicts.filter((c) => {
        const superseded = c.field === f && ((c.author === m.author && c.stamp < m.stamp) || (base !== undefined && c.stamp === base));
        if (superseded) effect.closed.push(c);
        return !superseded;
      });
    }
    const cur = own(s.clocks, f);
    const curValue = own(s.fields, f) ?? null;
    const curAuthor = own(s.authors, f) ?? "";
    if (cur !== undefined && m.stamp === cur) {
      // Same stamp: the same write, unless the protocol was broken; then the greater value, then
      // the greater author, wins everywhere.
      const c = compareValues(v, curValue);
      if (c > 0 || (c === 0 && compareStrings(m.author, curAuthor) > 0)) setField(s, effect, m, f, v);
      continue;
    }
    if (cur === undefined || m.stamp > cur) {
      if (cur !== undefined && track && curAuthor !== m.author && base !== cur) {
        openConflict(s, effect, { field: f, value: curValue, stamp: cur, author: curAuthor });
      }
      setField(s, effect, m, f, v);
      continue;
    }
    // Its author's later write of f, still an open conflict, supersedes it knowingly (only a late
    // mutation can meet one).
    const laterOwn = () => s.conflicts.some((c) => c.field === f && c.author === m.author && c.stamp > m.stamp);
    if (track && curAuthor !== m.author && !laterOwn()) openConflict(s, effect, { field: f, value: v, stamp: m.stamp, author: m.author });
  }

  if (track) for (const k of m.resolves ?? []) closeConflict(s, effect, k);
  sortConflicts(effect.opened);
  sortConflicts(effect.closed);
  return { state: s, effect };
}
