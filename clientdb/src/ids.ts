// Ids the device makes: record ids (UUIDv7, time-ordered, lowercase canonical form) and the client
// id of a device database (UUIDv4).

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function format(h: string): string {
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const TAIL_BITS = 74n;
const TAIL_MAX = (1n << TAIL_BITS) - 1n;
/** The last UUIDv7 this process made: its ms and its 74 bits after the version and variant. */
let last = { ms: -1, tail: 0n };

function randomTail(): bigint {
  const bytes = new Uint8Array(10);
  globalThis.crypto.getRandomValues(bytes);
  let tail = 0n;
  for (const b of bytes) tail = (tail << 8n) | BigInt(b);
  return tail & TAIL_MAX;
}

/**
 * A UUIDv7 (RFC 9562): 48-bit Unix ms timestamp from `nowMs`, version 7, variant 10, 74 bits that
 * are random for a new millisecond. Monotonic within this process (RFC 9562 §6.2, method 2): an id
 * made in the same millisecond as the last one, or while the clock stepped back, is the last one's
 * tail plus a random increment, so ids made one after another sort in the order they were made.
 */
export function uuidv7(nowMs: number): string {
  let ms = Math.max(0, Math.floor(nowMs));
  let tail: bigint;
  if (ms > last.ms) {
    tail = randomTail();
  } else {
    ms = last.ms;
    // A 32-bit random step keeps ids of one millisecond hard to guess and leaves 2^42 steps of room.
    tail = last.tail + 1n + (randomTail() & 0xffffffffn);
    if (tail > TAIL_MAX) {
      ms += 1;
      tail = randomTail() >> 1n;
    }
  }
  last = { ms, tail };
  const bytes = new Uint8Array(16);
  let m = ms;
  for (let i = 5; i >= 0; i--) {
    bytes[i] = m % 256;
    m = Math.floor(m / 256);
  }
  // 12 bits of the tail after the version nibble, then 62 bits after the variant bits.
  const a = tail >> 62n;
  let b = tail & ((1n << 62n) - 1n);
  bytes[6] = 0x70 | Number(a >> 8n);
  bytes[7] = Number(a & 0xffn);
  for (let i = 15; i >= 9; i--) {
    bytes[i] = Number(b & 0xffn);
    b >>= 8n;
  }
  bytes[8] = 0x80 | Number(b & 0x3fn);
  return format(hex(bytes));
}

/** A random UUIDv4. */
export function uuidv4(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  return format(hex(bytes));
}
