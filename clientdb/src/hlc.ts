// Hybrid logical clock: the device half of sync/stamp.go and sync/clock.go, rule for rule.
// Both run sync/testdata/clock_vectors.json; sync/CLOCK.md explains the rules and the drift policy.
//
// A stamp is a string `YYYY-MM-DDTHH:MM:SS.sssZ-CCCC-NNNNNNNNNNNNNNNN` (UTC wall time in ms, 4-digit
// uppercase hex counter, 16-char lowercase hex node id). Every part has a fixed width, so comparing
// two stamps as strings orders them by time, then counter, then node.

/** 9999-12-31T23:59:59.999Z, the last instant a 4-digit year can write. */
export const MAX_MILLIS = 253402300799999;
/** The largest counter; one more event in the same millisecond moves to the next millisecond. */
export const MAX_COUNTER = 0xffff;
export const STAMP_LENGTH = 46;
export const NODE_LENGTH = 16;
/** How far ahead of the server's wall clock a stamp is trusted as it is (server side; devices use 0). */
export const DEFAULT_MAX_DRIFT_MS = 5 * 60 * 1000;

/** A stamp's parts. */
export interface StampParts {
  /** ms since 1970-01-01T00:00:00Z, 0 to MAX_MILLIS */
  millis: number;
  /** 0 to MAX_COUNTER */
  counter: number;
  /** 16 lowercase hex characters */
  node: string;
}

/** A malformed stamp, node id or clock configuration (the Go side's EINVALID). */
export class StampError extends Error {
  readonly code = "invalid";
  constructor(message: string) {
    super(message);
    this.name = "StampError";
  }
}

const TIME_SHAPE = "dddd-dd-ddTdd:dd:dd.dddZ-";

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function invalidStamp(s: string, why: string): StampError {
  const shown = s.length > 64 ? `${s.slice(0, 64)}…` : s;
  return new StampError(`Invalid clock stamp ${JSON.stringify(shown)}: ${why}.`);
}

/** Whether `node` is a node id: 16 lowercase hex characters. */
export function validNode(node: string): boolean {
  if (node.length !== NODE_LENGTH) return false;
  for (let i = 0; i < node.length; i++) {
    const c = node.charCodeAt(i);
    if (!(isDigit(c) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** The number written by the digits s[from..to) (checked to be digits by the caller). A module
 * function, not a closure made per stamp: every change a device applies parses its stamps. */
function decimal(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) n = n * 10 + (s.charCodeAt(i) - 48);
  return n;
}

/** Reads a stamp. Accepts exactly what formatStamp writes (a real UTC instant from 1970 to 9999, no
 * leap seconds); throws StampError for anything else. */
export function parseStamp(s: string): StampParts {
  if (s.length !== STAMP_LENGTH) throw invalidStamp(s, "it must be 46 characters long");
  for (let i = 0; i < TIME_SHAPE.length; i++) {
    const c = s.charCodeAt(i);
    const want = TIME_SHAPE.charCodeAt(i);
    if (want === 100 /* d */ ? !isDigit(c) : c !== want) {
      throw invalidStamp(s, "the time is not YYYY-MM-DDTHH:MM:SS.sssZ");
    }
  }
  const year = decimal(s, 0, 4);
  const month = decimal(s, 5, 7);
  const day = decimal(s, 8, 10);
  const hour = decimal(s, 11, 13);
  const minute = decimal(s, 14, 16);
  const second = decimal(s, 17, 19);
  const milli = decimal(s, 20, 23);
  if (
    year < 1970 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw invalidStamp(s, "the time is not a real UTC instant between 1970 and 9999");
  }
  let counter = 0;
  for (let i = 25; i < 29; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (isDigit(c)) d = c - 48;
    else if (c >= 65 && c <= 70) d = c - 55;
    else throw invalidStamp(s, "the counter is not 4 uppercase hex digits");
    counter = counter * 16 + d;
  }
  if (s.charCodeAt(29) !== 45 /* - */) throw invalidStamp(s, "a '-' must separate the counter and the node id");
  const node = s.slice(30);
  if (!validNode(node)) throw invalidStamp(s, "the node id is not 16 lowercase hex digits");
  const millis = ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute) * 60000 + second * 1000 + milli;
  return { millis, counter, node };
}

/** Whether `s` is a valid stamp. */
export function isStamp(s: string): boolean {
  try {
    parseStamp(s);
    return true;
  } catch {
    return false;
  }
}

/** Throws StampError unless the parts can be written as a stamp. */
export function validateStampParts(p: StampParts): void {
  if (!Number.isInteger(p.millis) || p.millis < 0 || p.millis > MAX_MILLIS) {
    throw new StampError(`Invalid clock stamp: time ${p.millis} ms is outside 1970–9999.`);
  }
  if (!Number.isInteger(p.counter) || p.counter < 0 || p.counter > MAX_COUNTER) {
    throw new StampError(`Invalid clock stamp: counter ${p.counter} is outside 0–FFFF.`);
  }
  if (!validNode(p.node)) {
    throw new StampError(`Invalid clock stamp: node id ${JSON.stringify(p.node)} is not 16 lowercase hex digits.`);
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** Writes a stamp (throws StampError for parts out of range). */
export function formatStamp(p: StampParts): string {
  validateStampParts(p);
  const days = Math.floor(p.millis / 86400000);
  const rest = p.millis - days * 86400000;
  const [year, month, day] = civilFromDays(days);
  return (
    `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T` +
    `${pad(Math.floor(rest / 3600000), 2)}:${pad(Math.floor(rest / 60000) % 60, 2)}:${pad(Math.floor(rest / 1000) % 60, 2)}` +
    `.${pad(rest % 1000, 3)}Z-${p.counter.toString(16).toUpperCase().padStart(4, "0")}-${p.node}`
  );
}

/** Orders two valid stamps: -1, 0 or 1 (string order is stamp order). */
export function compareStamps(a: string, b: string): -1 | 0 | 1 {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders stamp parts by time, then counter, then node (same answer as compareStamps). */
export function compareStampParts(a: StampParts, b: StampParts): -1 | 0 | 1 {
  if (a.millis !== b.millis) return a.millis < b.millis ? -1 : 1;
  if (a.counter !== b.counter) return a.counter < b.counter ? -1 : 1;
  return a.node < b.node ? -1 : a.node > b.node ? 1 : 0;
}

/** The node id part of a valid stamp. */
export function stampNode(stamp: string): string {
  return stamp.slice(STAMP_LENGTH - NODE_LENGTH);
}

/** A random node id (64 random bits as 16 lowercase hex characters). */
export function newNodeId(): string {
  const bytes = new Uint8Array(NODE_LENGTH / 2);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export interface ClockOptions {
  /** This clock's node id (see newNodeId). Never run two clocks with one id, never reuse an id
   * without its `last`. */
  node: string;
  /** Reads the wall clock in ms since the epoch (Date.now in production; scripted in tests). */
  now: () => number;
  /** Bound on how far ahead of the wall clock a remote stamp may pull this clock; 0 (the default)
   * means no bound. Devices use 0: the server has bounded every stamp they receive. */
  maxDriftMs?: number;
  /** The persisted last stamp (see Clock.last), so that the clock stays monotonic across reloads. */
  last?: string;
}

/**
 * Hybrid logical clock (sync/CLOCK.md). Every stamp it returns is greater than every stamp it
 * returned or observed before, whatever the wall clock does: a wall clock standing still or going
 * backwards makes it count up within its last millisecond; a counter past FFFF moves it to the next
 * millisecond. A remote stamp ahead pulls it forward, with `maxDriftMs` set never further than
 * that far ahead of the wall clock.
 */
export class Clock {
  readonly node: string;
  readonly #now: () => number;
  readonly #maxDrift: number;
  #millis = 0;
  #counter = 0;

  constructor(options: ClockOptions) {
    if (!validNode(options.node)) {
      throw new StampError(`Invalid clock node id ${JSON.stringify(options.node)}: it must be 16 lowercase hex digits.`);
    }
    const drift = options.maxDriftMs ?? 0;
    if (!Number.isInteger(drift) || drift < 0) throw new StampError("A clock's maximum drift must be a whole number of ms, 0 or more.");
    this.node = options.node;
    this.#now = options.now;
    this.#maxDrift = drift;
    if (options.last !== undefined) {
      const last = parseStamp(options.last);
      this.#millis = last.millis;
      this.#counter = last.counter;
    }
  }

  /** The state to persist: the last stamp issued, or the clock's position after the last observation. */
  last(): string {
    return this.#stamp();
  }

  /** A new stamp for a local event (an edit). */
  now(): string {
    return this.#nowAt(this.#wall());
  }

  /** Merges a received stamp (throws StampError if malformed) and returns a new local stamp later
   * than both the clock's last stamp and `remote`, unless `remote` is beyond the drift bound: then
   * the clock advances only to wall + maxDriftMs (counter 0). */
  observe(remote: string): string {
    return this.#observeAt(parseStamp(remote), this.#wall());
  }

  /**
   * The server's entry point for a stamp sent with an edit (sync/CLOCK.md). Within the drift bound
   * the stamp is trusted: returned unchanged and observed. Further ahead, the edit is re-stamped: a
   * fresh stamp of this clock (its time, its node) is returned and the far stamp is not observed.
   */
  bound(remote: string): { stamp: string; restamped: boolean } {
    const parts = parseStamp(remote);
    const pt = this.#wall();
    if (this.#maxDrift > 0 && parts.millis > pt + this.#maxDrift) {
      return { stamp: this.#nowAt(pt), restamped: true };
    }
    this.#observeAt(parts, pt);
    return { stamp: remote, restamped: false };
  }

  #stamp(): string {
    return formatStamp({ millis: this.#millis, counter: this.#counter, node: this.node });
  }

  #wall(): number {
    const ms = Math.floor(this.#now());
    if (!Number.isFinite(ms)) return 0;
    return Math.min(Math.max(ms, 0), MAX_MILLIS);
  }

  #set(millis: number, counter: number): string {
    if (counter > MAX_COUNTER) {
      millis += 1;
      counter = 0;
    }
    // Only a clock at 9999-12-31T23:59:59.999Z that keeps counting gets here.
    if (millis > MAX_MILLIS) throw new StampError("The clock ran past 9999-12-31T23:59:59.999Z.");
    this.#millis = millis;
    this.#counter = counter;
    return this.#stamp();
  }

  #nowAt(pt: number): string {
    if (pt > this.#millis) return this.#set(pt, 0);
    return this.#set(this.#millis, this.#counter + 1);
  }

  #observeAt(remote: StampParts, pt: number): string {
    let rm = remote.millis;
    let rc = remote.counter;
    if (this.#maxDrift > 0 && rm > pt + this.#maxDrift) {
      rm = pt + this.#maxDrift;
      rc = 0;
    }
    const m = Math.max(this.#millis, rm, pt);
    let n = 0;
    if (m === this.#millis && m === rm) n = Math.max(this.#counter, rc) + 1;
    else if (m === this.#millis) n = this.#counter + 1;
    else if (m === rm) n = rc + 1;
    return this.#set(m, n);
  }
}

// ---------------------------------------------------------------- calendar arithmetic
// Proleptic Gregorian conversions (days since 1970-01-01), the same as sync/stamp.go.

function isLeap(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeap(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

function daysFromCivil(y: number, m: number, d: number): number {
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  let y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  if (m <= 2) y += 1;
  return [y, m, d];
}
