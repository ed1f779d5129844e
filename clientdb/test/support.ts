// Test support: fresh device databases on fake-indexeddb (one IDBFactory per test, so tests never
// share data) and a scriptable wall clock.
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import type { NetworkLike, SocketLike, TimersLike } from "../src/client";
import { ClientDb } from "../src/clientdb";
import type { EntityOf } from "../src/clientdb";

export const WORKSPACE = "0a1b2c3d-0000-4000-8000-000000000001";
export const OTHER_WORKSPACE = "0a1b2c3d-0000-4000-8000-000000000002";

/** A wall clock tests move by hand. */
export class ManualClock {
  constructor(public ms = Date.UTC(2025, 2, 1, 10, 0, 0)) {}
  now = (): number => this.ms;
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface TestDevice {
  db: ClientDb;
  factory: IDBFactory;
  clock: ManualClock;
  name: string;
  /** Closes and opens the same database again (a reload). */
  reopen(): Promise<ClientDb>;
}

let counter = 0;

export async function openDevice(options: { factory?: IDBFactory; name?: string; clock?: ManualClock } = {}): Promise<TestDevice> {
  const factory = options.factory ?? new IDBFactory();
  const clock = options.clock ?? new ManualClock();
  const name = options.name ?? `device-${++counter}`;
  const open = () => ClientDb.open({ name, indexedDB: factory, IDBKeyRange, now: clock.now });
  const device: TestDevice = {
    db: await open(),
    factory,
    clock,
    name,
    async reopen() {
      device.db.close();
      device.db = await open();
      return device.db;
    },
  };
  return device;
}

export const asset = (over: Partial<EntityOf<"assets">> = {}): EntityOf<"assets"> => ({
  name: "Piso en Madrid",
  assetClass: "real_estate",
  category: "residential",
  currency: "EUR",
  participation: "100",
  ...over,
});

export const task = (over: Partial<EntityOf<"tasks">> = {}): EntityOf<"tasks"> => ({
  title: "Renovar el seguro del coche",
  status: "todo",
  ...over,
});

// ---------------------------------------------------------------- fake transport for client tests


/** A socket the test drives from the server side (open, receive, drop). */
export class FakeSocket implements SocketLike {
  readyState = 0;
  readonly sent: Record<string, unknown>[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  closedWith: number | undefined;

  constructor(readonly url: string) {}

  send(data: string): void {
    if (this.readyState !== 1) throw new Error("send on a socket that is not open");
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }

  close(code = 1000, reason = ""): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.closedWith = code;
    const handler = this.onclose;
    queueMicrotask(() => handler?.({ code, reason }));
  }

  // server side
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }

  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }

  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code, reason: "" });
  }

  /** Messages of one type sent by the client. */
  of(type: string): Record<string, unknown>[] {
    return this.sent.filter((m) => m.type === type);
  }
}

/** Timers the test fires by hand; records every delay asked for. */
export class FakeTimers implements TimersLike {
  readonly delays: number[] = [];
  #next = 1;
  readonly pending = new Map<number, { fn: () => void; ms: number }>();

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.pending.set(id, { fn, ms });
    this.delays.push(ms);
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Fires the pending timers whose delay passes `filter` (all by default). */
  fire(filter: (ms: number) => boolean = () => true): number {
    let n = 0;
    for (const [id, t] of [...this.pending]) {
      if (!filter(t.ms)) continue;
      this.pending.delete(id);
      t.fn();
      n++;
    }
    return n;
  }
}

export class FakeNetwork implements NetworkLike {
  #online = true;
  #listeners = new Set<(online: boolean) => void>();
  online(): boolean {
    return this.#online;
  }
  subscribe(onChange: (online: boolean) => void): () => void {
    this.#listeners.add(onChange);
    return () => this.#listeners.delete(onChange);
  }
  set(online: boolean): void {
    this.#online = online;
    for (const l of this.#listeners) l(online);
  }
}

/** Waits (yielding to the event loop) until `check` holds. */
export async function until(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 1));
}
