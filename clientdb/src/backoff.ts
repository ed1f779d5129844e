// Reconnect schedule: exponential backoff with "equal jitter" (half the delay fixed, half random),
// so that a server restart is not met by every device at the same instant, yet no device waits
// much less than the exponential step.

export interface BackoffOptions {
  /** First delay (ms). */
  baseMs?: number;
  /** Largest delay (ms). */
  maxMs?: number;
  /** Random number in [0, 1) (Math.random in production; seeded in tests). */
  random?: () => number;
}

export const DEFAULT_BACKOFF = { baseMs: 500, maxMs: 30_000 } as const;

/** Delay before reconnect attempt `attempt` (0 = the first retry after a drop). */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? DEFAULT_BACKOFF.baseMs;
  const max = options.maxMs ?? DEFAULT_BACKOFF.maxMs;
  const random = options.random ?? Math.random;
  const step = Math.min(max, base * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + random() * (step / 2));
}

/** A small seeded generator (mulberry32) for replayable jitter in tests and simulations. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
