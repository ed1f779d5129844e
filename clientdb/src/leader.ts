// One tab syncs (DESIGN.md, Sync point 8): tabs of one browser profile compete for a Web Lock named
// after the device database; the holder is the leader and keeps the WebSocket. The others wait in
// the lock's queue and take over when the leader's tab closes (the browser releases its locks).

/** The part of the Web Locks API the election uses (navigator.locks in browsers). */
export interface LockManagerLike {
  request(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<void>): Promise<void>;
}

export function lockName(databaseName: string): string {
  return `patrimonio-sync:${databaseName}`;
}

/**
 * Takes part in the election. `lead` runs while this tab holds the lock and must return a
 * promise that settles when leading should stop (the lock is released then). `stop()` leaves the
 * queue or, when leading, aborts `lead` through the signal it receives and releases the lock.
 */
export class LeaderElection {
  readonly #locks: LockManagerLike;
  readonly #name: string;
  readonly #abort = new AbortController();
  #leading = false;
  #done: Promise<void> | undefined;

  constructor(locks: LockManagerLike, databaseName: string) {
    this.#locks = locks;
    this.#name = lockName(databaseName);
  }

  get leading(): boolean {
    return this.#leading;
  }

  /** Queues for the lock; `lead` runs once this tab gets it. */
  start(lead: (signal: AbortSignal) => Promise<void>): void {
    if (this.#done) return;
    const signal = this.#abort.signal;
    this.#done = this.#locks
      .request(this.#name, { signal }, async () => {
        if (signal.aborted) return;
        this.#leading = true;
        try {
          await lead(signal);
        } finally {
          this.#leading = false;
        }
      })
      .catch((err: unknown) => {
        // Aborting a queued request rejects it with an AbortError: that is stop() working.
        if (!signal.aborted) throw err;
      });
  }

  /** Stops leading (or waiting to lead) and resolves once the lock is released. */
  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#done;
  }
}

/**
 * An in-process lock manager with the Web Locks semantics the election relies on (exclusive,
 * first come first served, abortable while queued, released when the callback settles). Used in
 * Node (tests, benchmarks, simulations) where navigator.locks does not exist; each device
 * database name gets its own queue.
 */
export class MemoryLockManager implements LockManagerLike {
  readonly #queues = new Map<string, { grant: () => void; signal?: AbortSignal }[]>();
  readonly #held = new Set<string>();

  request(name: string, options: { signal?: AbortSignal }, callback: (lock: unknown) => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(new DOMException("The lock request was aborted.", "AbortError"));
        return;
      }
      const entry = {
        signal,
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          this.#held.add(name);
          Promise.resolve()
            .then(() => callback({ name }))
            .then(resolve, reject)
            .finally(() => {
              this.#held.delete(name);
              this.#next(name);
            });
        },
      };
      const onAbort = () => {
        const q = this.#queues.get(name) ?? [];
        const i = q.indexOf(entry);
        if (i >= 0) {
          q.splice(i, 1);
          reject(new DOMException("The lock request was aborted.", "AbortError"));
        }
      };
      signal?.addEventListener("abort", onAbort);
      const q = this.#queues.get(name) ?? [];
      this.#queues.set(name, q);
      q.push(entry);
      if (!this.#held.has(name) && q.length === 1) this.#next(name);
    });
  }

  /** Whether someone holds the lock `name` (for tests). */
  held(name: string): boolean {
    return this.#held.has(name);
  }

  #next(name: string): void {
    const q = this.#queues.get(name);
    const entry = q?.shift();
    if (entry) entry.grant();
  }
}
