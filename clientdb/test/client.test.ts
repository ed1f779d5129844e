// The sync client against a scripted server: the test plays the server on fake sockets and fires
// timers by hand, so reconnects, elections and the message flow are checked step by step.
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { describe, expect, test } from "vitest";
import { heldCursor } from "../src/apply";
import { backoffDelay, seededRandom } from "../src/backoff";
import { SyncClient, type SyncClientOptions } from "../src/client";
import { dbOf, type ClientDb } from "../src/clientdb";
import { cursorKey, type CursorMeta } from "../src/db";
import { LeaderElection, MemoryLockManager, lockName } from "../src/leader";
import { computeStatus } from "../src/status";
import { statusOf } from "../src/hooks";
import { FakeNetwork, FakeSocket, FakeTimers, WORKSPACE, openDevice, task, until } from "./support";

const SERVER_TIME = "2025-03-01T10:00:00.000Z-0000-5e5e5e5e5e5e5e5e";

function welcome(maxMutationsPerPush = 500) {
  return {
    type: "welcome",
    protocolVersion: PROTOCOL_VERSION,
    schemaVersion: SCHEMA_VERSION,
    serverTime: SERVER_TIME,
    limits: { maxMessageBytes: 1_048_576, maxMutationsPerPush, maxChangesPerPage: 500, maxMessagesPerSecond: 100 },
  };
}

interface Harness {
  client: SyncClient;
  sockets: FakeSocket[];
  timers: FakeTimers;
  network: FakeNetwork;
  locks: MemoryLockManager;
  last(): FakeSocket;
}

function harness(db: ClientDb, options: Partial<SyncClientOptions> = {}, shared: Partial<Pick<Harness, "locks">> = {}): Harness {
  options = { onEvent: (e) => process.env.DEBUG_SYNC && console.warn(e.type, JSON.stringify(e.detail ?? null)?.slice(0, 300)), ...options };
  const sockets: FakeSocket[] = [];
  const timers = new FakeTimers();
  const network = new FakeNetwork();
  const locks = shared.locks ?? new MemoryLockManager();
  const client = new SyncClient(db, {
    url: "ws://sync.test/api/v1/sync",
    workspaces: () => [WORKSPACE],
    socket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    locks,
    network,
    timers,
    pingIntervalMs: 0,
    backoff: { random: seededRandom(7) },
    ...options,
  });
  return { client, sockets, timers, network, locks, last: () => sockets[sockets.length - 1]! };
}

/** Connects: open, hello, welcome, and an empty live page for the workspace. */
async function connect(h: Harness, cursor = 0) {
  await until(() => h.sockets.length > 0 && h.last().readyState === 0);
  const s = h.last();
  s.open();
  await until(() => s.of("hello").length === 1);
  s.receive(welcome());
  s.receive({ type: cursor === 0 ? "snapshot" : "changes", workspaceId: WORKSPACE, ...(cursor === 0 ? { records: [] } : { changes: [] }), cursor, hasMore: false });
  await until(() => h.client.connected);
  return s;
}

/** Record n of another device, and the changes page (seq n, alone) that creates it. */
const otherRecord = (n: number) => `0190a000-0000-7000-8000-0000000000f${n}`;
const otherPage = (seq: number) => ({
  type: "changes",
  workspaceId: WORKSPACE,
  changes: [{ seq, collection: "tasks", recordId: otherRecord(seq), author: "0f0f0f0f-0000-4000-8000-00000000000f", mutationId: seq, op: "put", stamp: SERVER_TIME, fields: task(), base: {} }],
  cursor: seq,
  hasMore: false,
});

describe("reconnect backoff", () => {
  test("the delay doubles from 0.5 s up to 30 s, with half of it jittered", () => {
    const random = seededRandom(42);
    const delays = Array.from({ length: 10 }, (_, i) => backoffDelay(i, { random }));
    const steps = [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000];
    delays.forEach((d, i) => {
      expect(d).toBeGreaterThanOrEqual(steps[i]! / 2);
      expect(d).toBeLessThanOrEqual(steps[i]!);
    });
    // Seeded: the same seed gives the same schedule, another seed another one.
    const again = seededRandom(42);
    expect(Array.from({ length: 10 }, (_, i) => backoffDelay(i, { random: again }))).toEqual(delays);
    const other = seededRandom(43);
    expect(Array.from({ length: 10 }, (_, i) => backoffDelay(i, { random: other }))).not.toEqual(delays);
  });

  test("failed connections are retried on the backoff schedule, which progress (here a snapshot applied) resets", async () => {
    const d = await openDevice();
    const h = harness(d.db, { backoff: { random: seededRandom(9) } });
    h.client.start();
    for (let i = 0; i < 6; i++) {
      await until(() => h.sockets.length === i + 1);
      h.last().drop();
      await until(() => h.timers.pending.size === 1);
      h.timers.fire();
    }
    const expected = seededRandom(9);
    expect(h.timers.delays).toEqual(Array.from({ length: 6 }, (_, i) => backoffDelay(i, { random: expected })));

    // A connection that makes progress (its first snapshot applied) starts the schedule again.
    await connect(h);
    await h.client.idle();
    h.last().drop();
    await until(() => h.timers.pending.size === 1);
    const [next] = [...h.timers.pending.values()];
    expect(next!.ms).toBeLessThanOrEqual(500);
    await h.client.stop();
  });
});

describe("leader election", () => {
  test("one holder at a time, in request order; stopping hands over", async () => {
    const locks = new MemoryLockManager();
    const log: string[] = [];
    const elect = (name: string) => {
      const e = new LeaderElection(locks, "db");
      e.start(async (signal) => {
        log.push(`${name} leads`);
        await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
        log.push(`${name} stops`);
      });
      return e;
    };
    const a = elect("a");
    const b = elect("b");
    const c = elect("c");
    await until(() => log.length === 1);
    expect(a.leading).toBe(true);
    expect(b.leading).toBe(false);
    // c leaves the queue before its turn: it never leads.
    await c.stop();
    await a.stop();
    await until(() => b.leading);
    expect(log).toEqual(["a leads", "a stops", "b leads"]);
    await b.stop();
    expect(locks.held(lockName("db"))).toBe(false);
  });

  test("two tabs: only the leader opens a socket; closing it hands the socket over", async () => {
    const a = await openDevice();
    const b = await openDevice({ factory: a.factory, name: a.name, clock: a.clock });
    const locks = new MemoryLockManager();
    const ha = harness(a.db, {}, { locks });
    const hb = harness(b.db, {}, { locks });
    ha.client.start();
    hb.client.start();
    await connect(ha);
    await until(() => ha.client.connected);
    expect(ha.client.leading).toBe(true);
    expect(hb.client.leading).toBe(false);
    expect(hb.sockets).toHaveLength(0);

    // The follower's commands are pushed by the leader.
    await ha.client.idle();
    expect(ha.last().of("push")).toHaveLength(0);
    await b.db.create("tasks", WORKSPACE, task());
    await until(() => ha.last().of("push").length === 1);

    await ha.client.stop();
    expect(ha.last().readyState).toBe(3);
    await connect(hb);
    expect(hb.client.leading).toBe(true);
    // The new leader resends what was not acknowledged.
    await until(() => hb.last().of("push").length === 1);
    await hb.client.stop();
  });
});

describe("protocol flow", () => {
  test("hello carries the client id, the cursors and the snapshot to resume", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    await until(() => h.sockets.length === 1);
    let s = h.last();
    s.open();
    await until(() => s.of("hello").length === 1);
    expect(s.of("hello")[0]).toEqual({ type: "hello", protocolVersion: PROTOCOL_VERSION, schemaVersion: SCHEMA_VERSION, clientId: d.db.clientId, cursors: { [WORKSPACE]: null } });
    s.receive(welcome());
    // First page of a snapshot: the client asks for the next one and applies it (its token stored).
    s.receive({ type: "snapshot", workspaceId: WORKSPACE, records: [], cursor: 12, hasMore: true, pageToken: "page-2" });
    await until(() => s.of("pull").length === 1);
    expect(s.of("pull")[0]).toEqual({ type: "pull", workspaceId: WORKSPACE, pageToken: "page-2" });
    await until(async () => ((await dbOf(d.db).meta.get(cursorKey(WORKSPACE))) as CursorMeta | undefined)?.snapshot?.resume === "page-2");

    // The connection drops mid-snapshot: the next hello resumes it.
    s.drop();
    await until(() => h.timers.pending.size === 1);
    h.timers.fire();
    await until(() => h.sockets.length === 2);
    s = h.last();
    s.open();
    await until(() => s.of("hello").length === 1);
    expect(s.of("hello")[0]).toMatchObject({ cursors: { [WORKSPACE]: null }, resume: { [WORKSPACE]: "page-2" } });
    s.receive(welcome());
    s.receive({ type: "snapshot", workspaceId: WORKSPACE, records: [], cursor: 12, hasMore: false });
    await until(async () => (await d.db.cursor(WORKSPACE)) === 12);

    // Catch-up pages are pulled by cursor.
    const change = (seq: number) => ({
      seq,
      collection: "tasks",
      recordId: "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f",
      author: "0f0f0f0f-0000-4000-8000-00000000000f",
      mutationId: seq,
      op: "put",
      stamp: `2025-03-01T09:00:${String(seq).padStart(2, "0")}.000Z-0000-aaaaaaaaaaaaaaaa`,
      fields: { title: `v${seq}`, status: "todo" },
      base: {},
    });
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: [13, 14, 15].map(change), cursor: 15, hasMore: true });
    await until(() => s.of("pull").length === 1);
    expect(s.of("pull")[0]).toEqual({ type: "pull", workspaceId: WORKSPACE, after: 15 });
    await h.client.stop();
  });

  test("the outbox is pushed in order, in batches, and empties with the acks", async () => {
    const d = await openDevice();
    await d.db.batch(async () => {
      for (let i = 0; i < 7; i++) await d.db.create("tasks", WORKSPACE, task({ title: `T${i}` }));
    });
    const h = harness(d.db, { batchSize: 3, pushWindow: 1 });
    h.client.start();
    const s = await connect(h);
    await until(() => s.of("push").length === 1);
    const ids = (m: Record<string, unknown>) => (m.mutations as { mutationId: number }[]).map((x) => x.mutationId);
    expect(ids(s.of("push")[0]!)).toEqual([1, 2, 3]);
    const first = (s.of("push")[0]!.mutations as Record<string, unknown>[])[0]!;
    expect(Object.keys(first).sort()).toEqual(["base", "collection", "fields", "mutationId", "op", "recordId", "stamp", "workspaceId"]);
    // One window: the next batch waits for the acks.
    expect(s.of("push")).toHaveLength(1);
    s.receive({ type: "ack", acks: [1, 2, 3].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId })) });
    await until(() => s.of("push").length === 2);
    expect(ids(s.of("push")[1]!)).toEqual([4, 5, 6]);
    s.receive({ type: "ack", acks: [4, 5].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId })) });
    s.receive({ type: "reject", mutationId: 6, code: "invalid", issues: [{ path: "title", key: "validation.invalid", params: {}, message: "x" }] });
    await until(() => s.of("push").length === 3);
    expect(ids(s.of("push")[2]!)).toEqual([7]);
    s.receive({ type: "ack", acks: [{ mutationId: 7, status: "applied", seq: 7 }] });
    await until(async () => (await d.db.pendingCount()) === 0);
    expect((await d.db.rejected()).map((r) => r.mutationId)).toEqual([6]);
    await h.client.stop();
  });

  test("commands made while pushes are in flight gather into the next push, paced under the server's rate", async () => {
    const d = await openDevice();
    const h = harness(d.db, { pushWindow: 1 });
    h.client.start();
    await until(() => h.sockets.length === 1);
    const s = h.last();
    s.open();
    await until(() => s.of("hello").length === 1);
    // 4 messages per second: the client allows itself 2 pushes per second.
    s.receive({ ...welcome(), limits: { ...welcome().limits, maxMessagesPerSecond: 4 } });
    s.receive({ type: "snapshot", workspaceId: WORKSPACE, records: [], cursor: 0, hasMore: false });
    await until(() => h.client.connected);
    const ids = (m: Record<string, unknown>) => (m.mutations as { mutationId: number }[]).map((x) => x.mutationId);

    await d.db.create("tasks", WORKSPACE, task());
    await until(() => s.of("push").length === 1);
    for (let i = 0; i < 3; i++) await d.db.create("tasks", WORKSPACE, task());
    expect(s.of("push")).toHaveLength(1);
    s.receive({ type: "ack", acks: [{ mutationId: 1, status: "applied", seq: 1 }] });
    await until(() => s.of("push").length === 2);
    expect(ids(s.of("push")[1]!)).toEqual([2, 3, 4]);

    // The bucket is empty (the wall clock has not moved): the next push waits half a second.
    await d.db.create("tasks", WORKSPACE, task());
    s.receive({ type: "ack", acks: [2, 3, 4].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId })) });
    await until(() => [...h.timers.pending.values()].some((t) => t.ms === 500));
    expect(s.of("push")).toHaveLength(2);
    d.clock.advance(500);
    h.timers.fire((ms) => ms === 500);
    await until(() => s.of("push").length === 3);
    expect(ids(s.of("push")[2]!)).toEqual([5]);
    await h.client.stop();
  });

  test("an ack goes ahead of the pages queued before it: the next push leaves before they are applied", async () => {
    const d = await openDevice();
    for (let i = 0; i < 4; i++) await d.db.create("tasks", WORKSPACE, task());
    /** The pushes sent when each page was applied, by the page's cursor. */
    const atPage = new Map<number, number>();
    const h: Harness = harness(d.db, {
      pushWindow: 1,
      batchSize: 2,
      // Pages applied as they come (not waiting for the pushes in flight: the next test).
      pagesWaitBytes: 0,
      onEvent: (e) => {
        if (e.type === "page") atPage.set((e.detail as { cursor: number }).cursor, h.last().of("push").length);
      },
    });
    h.client.start();
    const s = await connect(h);
    await until(() => s.of("push").length === 1);
    const ids = (m: Record<string, unknown>) => (m.mutations as { mutationId: number }[]).map((x) => x.mutationId);
    expect(ids(s.of("push")[0]!)).toEqual([1, 2]);
    // Two pages of another device's changes arrive, then the ack of the first push: the first
    // page is being applied when the ack comes, the second waits behind it.
    s.receive(otherPage(1));
    s.receive(otherPage(2));
    s.receive({ type: "ack", acks: [1, 2].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId + 2 })) });
    await until(() => atPage.has(2));
    // When the second page was applied, the second push had left.
    expect(atPage.get(2)).toBe(2);
    expect(ids(s.of("push")[1]!)).toEqual([3, 4]);
    expect(await d.db.cursor(WORKSPACE)).toBe(2);
    expect((await dbOf(d.db).outbox.toCollection().primaryKeys()).sort()).toEqual([3, 4]);
    expect((await d.db.get("tasks", otherRecord(2)))?.fields.title).toBe(task().title);
    await h.client.stop();
  });

  // A device pushing a backlog applies the pages that come meanwhile (its own changes coming
  // back, another device's) once its pushes are answered; over the budget, as they come.
  test.each([
    ["by default they wait", undefined, false],
    ["over the budget they do not", 1, true],
  ] as const)("pages wait for the pushes in flight: %s", async (_, pagesWaitBytes, appliedInFlight) => {
    const d = await openDevice();
    for (let i = 0; i < 6; i++) await d.db.create("tasks", WORKSPACE, task());
    const h: Harness = harness(d.db, { pushWindow: 1, batchSize: 2, ...(pagesWaitBytes === undefined ? {} : { pagesWaitBytes }) });
    h.client.start();
    const s = await connect(h);
    await until(() => s.of("push").length === 1);
    // Pushes unanswered when each of another device's records was written (its page applied):
    // sent, less those whose ack the device has applied (it deletes their two outbox rows). Counting
    // acks as they are received instead raced with a page already being applied.
    let deleted = 0;
    dbOf(d.db).outbox.hook("deleting", () => {
      deleted++;
    });
    const inFlight: number[] = [];
    dbOf(d.db)
      .records("tasks")
      .hook("creating", (id) => {
        if (String(id).startsWith(otherRecord(0).slice(0, -1))) inFlight.push(s.of("push").length - deleted / 2);
      });
    const ack = (ids: number[]) => {
      s.receive({ type: "ack", acks: ids.map((mutationId) => ({ mutationId, status: "applied", seq: mutationId + 2 })) });
    };
    s.receive(otherPage(1));
    s.receive(otherPage(2));
    ack([1, 2]);
    await until(async () => (await dbOf(d.db).outbox.count()) === 4);
    expect(s.of("push").length).toBe(2);
    ack([3, 4]);
    await until(async () => (await dbOf(d.db).outbox.count()) === 2);
    expect(s.of("push").length).toBe(3);
    ack([5, 6]);
    await until(async () => (await d.db.cursor(WORKSPACE)) === 2);
    expect(inFlight).toHaveLength(2);
    if (appliedInFlight) expect(inFlight[0]).toBeGreaterThan(0);
    else expect(inFlight).toEqual([0, 0]);
    // Nothing lost either way: every push answered, both pages applied.
    expect(await dbOf(d.db).outbox.count()).toBe(0);
    for (const seq of [1, 2]) expect((await d.db.get("tasks", otherRecord(seq)))?.fields.title).toBe(task().title);
    await h.client.stop();
  });

  test("while the window is full the two pushes after it are read ahead: answers arriving together each send one at once", async () => {
    const d = await openDevice();
    for (let i = 0; i < 8; i++) await d.db.create("tasks", WORKSPACE, task());
    let read = 0;
    dbOf(d.db).outbox.hook("reading", (row) => {
      read++;
      return row;
    });
    const h = harness(d.db, { pushWindow: 1, batchSize: 2 });
    h.client.start();
    const s = await connect(h);
    await until(() => s.of("push").length === 1);
    // [1, 2] in flight; [3, 4] and [5, 6] read and encoded while it is.
    await until(() => read === 6);
    const ack = (ids: number[]) => s.receive({ type: "ack", acks: ids.map((mutationId) => ({ mutationId, status: "applied", seq: mutationId })) });
    ack([1, 2]);
    ack([3, 4]);
    // Both answers in one turn: each sent the next push as it arrived, with no read in between.
    expect(s.of("push").map(pushed)).toEqual([
      [1, 2],
      [3, 4],
      [5, 6],
    ]);
    expect(read).toBe(6);
    ack([5, 6]);
    await until(() => s.of("push").length === 4);
    expect(pushed(s.of("push")[3]!)).toEqual([7, 8]);
    ack([7, 8]);
    await until(async () => (await dbOf(d.db).outbox.count()) === 0);
    await h.client.stop();
  });

  test("after a reconnect every unacknowledged mutation is sent again", async () => {
    const d = await openDevice();
    await d.db.create("tasks", WORKSPACE, task());
    await d.db.create("tasks", WORKSPACE, task());
    const h = harness(d.db);
    h.client.start();
    let s = await connect(h);
    await until(() => s.of("push").length === 1);
    s.receive({ type: "ack", acks: [{ mutationId: 1, status: "applied", seq: 1 }] });
    await until(async () => (await d.db.pendingCount()) === 1);
    s.drop();
    await until(() => h.timers.pending.size === 1);
    h.timers.fire();
    s = await connect(h, 0);
    await until(() => s.of("push").length === 1);
    expect((s.of("push")[0]!.mutations as { mutationId: number }[]).map((m) => m.mutationId)).toEqual([2]);
    await h.client.stop();
  });

  test("a push left unanswered closes the connection; the next one sends it again", async () => {
    const d = await openDevice();
    await d.db.create("tasks", WORKSPACE, task());
    const h = harness(d.db, { answerTimeoutMs: 45_000 });
    h.client.start();
    let s = await connect(h);
    await until(() => s.of("push").length === 1);
    // The ack never comes (a lost frame): the watchdog fires.
    await until(() => [...h.timers.pending.values()].some((t) => t.ms === 45_000));
    h.timers.fire((ms) => ms === 45_000);
    expect(s.closedWith).toBe(4002);
    await until(() => h.timers.pending.size === 1);
    h.timers.fire();
    s = await connect(h);
    await until(() => s.of("push").length === 1);
    expect((s.of("push")[0]!.mutations as { mutationId: number }[]).map((m) => m.mutationId)).toEqual([1]);
    await h.client.stop();
  });

  test("a changes page that skips a seq is not applied and the connection starts again", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    let s = await connect(h);
    const change = (seq: number) => ({
      seq,
      collection: "tasks",
      recordId: "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f",
      author: "0f0f0f0f-0000-4000-8000-00000000000f",
      mutationId: seq,
      op: "put",
      stamp: `2025-03-01T09:00:${String(seq).padStart(2, "0")}.000Z-0000-aaaaaaaaaaaaaaaa`,
      fields: { title: `v${seq}`, status: "todo" },
      base: {},
    });
    // The device holds the workspace at 0 (an empty snapshot); a page starting at 2 means page 1
    // was lost.
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: [change(2)], cursor: 2, hasMore: false });
    await until(() => s.closedWith !== undefined);
    expect(await d.db.cursor(WORKSPACE)).toBe(0);
    expect(await d.db.get("tasks", "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f")).toBeUndefined();
    await until(() => h.timers.pending.size === 1);
    h.timers.fire();
    await until(() => h.sockets.length === 2);
    s = h.last();
    s.open();
    await until(() => s.of("hello").length === 1);
    // Held at 0, not "nothing yet": the server sends the changes after 0, change 1 included.
    expect(s.of("hello")[0]).toMatchObject({ cursors: { [WORKSPACE]: 0 } });
    await h.client.stop();
  });

  test("a workspace held at cursor 0 (an empty snapshot) is asked for by cursor, never by snapshot again", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    let s = await connect(h); // the empty snapshot, cursor 0
    expect(s.of("hello")[0]).toMatchObject({ cursors: { [WORKSPACE]: null } });
    // Applied and recorded as held before the connection drops (a drop before that asks for the
    // snapshot again, which is right too, but not what this test is about).
    await until(async () => heldCursor((await dbOf(d.db).meta.get(cursorKey(WORKSPACE))) as CursorMeta | undefined) === 0);
    s.drop();
    await until(() => h.timers.pending.size === 1);
    h.timers.fire();
    await until(() => h.sockets.length === 2);
    s = h.last();
    s.open();
    await until(() => s.of("hello").length === 1);
    expect(s.of("hello")[0]).toMatchObject({ cursors: { [WORKSPACE]: 0 } });
    s.receive(welcome());
    const change = {
      seq: 1,
      collection: "tasks",
      recordId: "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f",
      author: "0f0f0f0f-0000-4000-8000-00000000000f",
      mutationId: 1,
      op: "put",
      stamp: "2025-03-01T09:00:01.000Z-0000-aaaaaaaaaaaaaaaa",
      fields: { title: "v1", status: "todo" },
      base: {},
    };
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: [change], cursor: 1, hasMore: false });
    await until(async () => (await d.db.cursor(WORKSPACE)) === 1);
    expect((await d.db.get("tasks", change.recordId))?.fields.title).toBe("v1");
    await h.client.stop();
  });

  test("cursors stored before protocol 3 (no held flag) say null until a snapshot completed", () => {
    const row = (over: Partial<CursorMeta>): CursorMeta => ({ key: cursorKey(WORKSPACE), workspaceId: WORKSPACE, seq: 0, epoch: 0, caughtUp: false, ...over });
    expect(heldCursor(undefined)).toBeNull();
    expect(heldCursor(row({}))).toBeNull(); // never synced
    expect(heldCursor(row({ caughtUp: true }))).toBe(0); // an empty snapshot completed
    expect(heldCursor(row({ seq: 7, caughtUp: false }))).toBe(7);
    expect(heldCursor(row({ seq: 0, caughtUp: false, snapshot: { received: 3, startedAt: 0 } }))).toBeNull();
    expect(heldCursor(row({ seq: 0, caughtUp: true, held: false }))).toBeNull();
    expect(heldCursor(row({ seq: 0, caughtUp: false, held: true }))).toBe(0);
  });

  test("offline closes the socket and waits; online reconnects at once", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    const s = await connect(h);
    await until(() => h.client.connected);
    h.network.set(false);
    expect(s.readyState).toBe(3);
    await until(async () => (await d.db.link())?.state === "offline");
    expect(h.timers.pending.size).toBe(0);
    h.network.set(true);
    await until(() => h.sockets.length === 2);
    await h.client.stop();
  });

  test("an ended session stops the client instead of retrying", async () => {
    const d = await openDevice();
    const fatal: string[] = [];
    const h = harness(d.db, { onFatal: (code) => fatal.push(code) });
    h.client.start();
    await until(() => h.sockets.length === 1);
    h.last().open();
    h.last().receive({ type: "error", code: "unauthorized", message: "Your session has ended." });
    await until(() => fatal.length === 1);
    h.last().drop(4401);
    expect(fatal).toEqual(["unauthorized"]);
    expect(h.timers.pending.size).toBe(0);
    await until(async () => (await d.db.link())?.error === "unauthorized");
    await h.client.stop();
  });

  test("a start while the stop before it is still leaving leadership leads again, and the next stop stops it", async () => {
    // The app restarts the client after an unauthorized refusal that /me did not confirm; the stop
    // that refusal began may not have finished yet.
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    const first = await connect(h);
    const stopping = h.client.stop();
    h.client.start();
    await stopping;
    expect(first.readyState).toBe(3);
    await until(() => h.sockets.length === 2);
    const second = await connect(h);
    await h.client.stop();
    expect(second.readyState).toBe(3);
    expect(h.client.connected).toBe(false);
  });

  test("resyncRequired starts a snapshot again and keeps the outbox", async () => {
    const d = await openDevice();
    await d.db.create("tasks", WORKSPACE, task());
    // The connection's first page is applied while the push is in flight (no waiting for its
    // answer, #pagesWait), so the resync comes with a push unanswered.
    const h = harness(d.db, { pagesWaitBytes: 0 });
    h.client.start();
    const s = await connect(h, 0);
    await until(() => s.of("push").length === 1);
    s.receive({ type: "resyncRequired", workspaceId: WORKSPACE, reason: "cursor_too_old" });
    await until(() => s.of("pull").length === 1);
    expect(s.of("pull")[0]).toEqual({ type: "pull", workspaceId: WORKSPACE });
    expect(await d.db.pendingCount()).toBe(1);
    await h.client.stop();
  });
});

describe("status", () => {
  const cursor = (over: object = {}) => ({ key: `cursor:${WORKSPACE}` as const, workspaceId: WORKSPACE, seq: 4, epoch: 0, caughtUp: true, ...over });
  const online = { key: "link" as const, state: "online" as const, busy: false, at: 1, lastSyncedAt: 1000 };
  const base = { link: online, pending: 0, rejected: 0, conflicts: 0, cursors: [cursor()] };

  test.each([
    ["connected, nothing pending and caught up is synced", base, "synced"],
    ["no link at all is offline", { ...base, link: undefined }, "offline"],
    ["connecting is connecting", { ...base, link: { ...online, state: "connecting" as const } }, "connecting"],
    ["connecting with a local failure is offline (the failure is what it says)", { ...base, link: { ...online, state: "connecting" as const, error: "local_error" } }, "offline"],
    ["pending mutations while connected are syncing", { ...base, pending: 3 }, "syncing"],
    ["pending mutations while offline are offline", { ...base, pending: 3, link: { ...online, state: "offline" as const } }, "offline"],
    ["a catch-up in progress is syncing", { ...base, cursors: [cursor({ caughtUp: false })] }, "syncing"],
    ["a snapshot in progress is syncing", { ...base, cursors: [cursor({ snapshot: { received: 10, startedAt: 0 } })] }, "syncing"],
    ["the leader's busy flag is syncing", { ...base, link: { ...online, busy: true } }, "syncing"],
    ["rejected and conflicts alone do not stop synced", { ...base, rejected: 2, conflicts: 1 }, "synced"],
  ])("%s", (_name, inputs, state) => {
    expect(computeStatus(inputs).state).toBe(state);
  });

  test("counts, last synced time, snapshot progress and errors are reported", () => {
    const s = computeStatus({
      link: { ...online, state: "offline", error: "unauthorized" },
      pending: 5,
      rejected: 2,
      conflicts: 1,
      cursors: [cursor({ snapshot: { received: 1500, startedAt: 0 } }), cursor({ workspaceId: "w2", snapshot: { received: 500, startedAt: 0 } })],
    });
    expect(s).toEqual({ state: "offline", pending: 5, rejected: 2, conflicts: 1, lastSyncedAt: 1000, snapshot: { received: 2000 }, error: "unauthorized" });
  });

  test("a first attempt says connecting; a retry after a lost connection stays offline", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    await until(() => h.sockets.length === 1);
    // The page has just loaded: the socket is opening, nothing is known to be wrong.
    await until(async () => (await statusOf(dbOf(d.db))).state === "connecting");
    h.last().drop();
    await until(() => h.timers.pending.size === 1);
    expect((await statusOf(dbOf(d.db))).state).toBe("offline");
    h.timers.fire();
    await until(() => h.sockets.length === 2);
    // The retry's socket is opening, but the device is still without a connection.
    // Let any link write of the attempt land (fake-indexeddb takes a few event-loop turns per request).
    for (let i = 0; i < 30; i++) await new Promise((r) => setImmediate(r));
    expect((await statusOf(dbOf(d.db))).state).toBe("offline");
    await connect(h);
    await until(async () => (await statusOf(dbOf(d.db))).state === "synced");
    // The network comes back after an outage: a first attempt again.
    h.network.set(false);
    await until(async () => (await statusOf(dbOf(d.db))).state === "offline");
    h.network.set(true);
    await until(() => h.sockets.length === 3);
    await until(async () => (await statusOf(dbOf(d.db))).state === "connecting");
    await h.client.stop();
  });

  test("the device reports its status through the database, for every tab", async () => {
    const d = await openDevice();
    await d.db.create("tasks", WORKSPACE, task());
    expect(await statusOf(dbOf(d.db))).toMatchObject({ state: "offline", pending: 1, lastSyncedAt: null });
    const h = harness(d.db);
    h.client.start();
    const s = await connect(h);
    await until(async () => (await statusOf(dbOf(d.db))).state === "syncing");
    await until(() => s.of("push").length === 1);
    s.receive({ type: "ack", acks: [{ mutationId: 1, status: "applied", seq: 1 }] });
    await h.client.idle();
    const synced = await statusOf(dbOf(d.db));
    expect(synced).toMatchObject({ state: "synced", pending: 0 });
    expect(synced.lastSyncedAt).toBe(d.clock.now());
    await h.client.stop();
    expect((await statusOf(dbOf(d.db))).state).toBe("offline");
  });
});

// ---------------------------------------------------------------- orders (never a silent loss)

/** The device's outbox as the server received it: its changes as the change log would carry them
 * back (seq from `first`), with `stamp` for the ones the server re-stamped. */
async function echoOf(d: { db: ClientDb }, ids: number[], first: number, stamp?: (id: number) => string | undefined) {
  const rows = (await dbOf(d.db).outbox.bulkGet(ids)).map((r) => r!);
  return rows.map((r, i) => ({
    seq: first + i,
    collection: r.collection,
    recordId: r.recordId,
    author: r.mutation.author,
    mutationId: r.mutationId,
    op: r.mutation.op,
    stamp: stamp?.(r.mutationId) ?? r.mutation.stamp,
    fields: r.mutation.fields,
    base: r.mutation.base ?? {},
  }));
}

/** Creates a task; its id. */
async function created(db: ClientDb, title: string): Promise<string> {
  const r = await db.create("tasks", WORKSPACE, task({ title }));
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.id;
}

const pushed = (m: Record<string, unknown>) => (m.mutations as { mutationId: number }[]).map((x) => x.mutationId);

/** Reconnects after a drop: fires the backoff timer, opens the next socket, says welcome. */
async function reconnect(h: Harness): Promise<FakeSocket> {
  const n = h.sockets.length;
  await until(() => [...h.timers.pending.values()].length > 0);
  h.timers.fire();
  await until(() => h.sockets.length === n + 1);
  const s = h.last();
  s.open();
  await until(() => s.of("hello").length === 1);
  s.receive(welcome());
  return s;
}

/** The titles the device shows for its four tasks, and whether each is still waiting for the
 * server (a local mutation on top). */
async function shown(d: { db: ClientDb }, records: string[]) {
  return Promise.all(records.map(async (id) => (await d.db.get("tasks", id))?.fields.title));
}

/** A device with n new tasks (T0, T1, …) whose client pushes two at a time with one push in
 * flight; returns once the first push left. */
async function pushingTasks(n: number) {
  const d = await openDevice();
  const records: string[] = [];
  for (let i = 0; i < n; i++) records.push(await created(d.db, `T${i}`));
  // Pages are applied as they come, even with a push unanswered: these tests script every order
  // of pages and answers, which pages waiting for the pushes in flight still meet once their
  // budget is reached (pagesWaitBytes).
  const h = harness(d.db, { pushWindow: 1, batchSize: 2, pagesWaitBytes: 0 });
  h.client.start();
  const s = await connect(h);
  await until(() => s.of("push").length === 1);
  return { d, records, h, s };
}

describe("orders of answers, pages, reconnects and resyncs: nothing acknowledged is lost", () => {
  // The server's answer to the first push [1, 2], which opens the window for the second push [3, 4]
  // as it arrives; then the answer's own transaction fails (storage), so the connection is dropped.
  // Whatever the answer was, the outbox must still hold all four, the records must still show
  // them, and the next connection pushes them again in order; the server's answers there (each
  // mutation already applied, or refused again) then settle every one.
  const RESTAMP = "2025-03-01T10:00:09.000Z-0000-";
  test.each([
    ["applied", (ids: number[]) => ({ type: "ack", acks: ids.map((mutationId) => ({ mutationId, status: "applied", seq: mutationId })) })],
    ["re-stamped", (ids: number[], node = "") => ({ type: "ack", acks: ids.map((mutationId) => ({ mutationId, status: "applied", seq: mutationId, stamp: `${RESTAMP}${node}` })) })],
    ["duplicate (seq 0)", (ids: number[]) => ({ type: "ack", acks: ids.map((mutationId) => ({ mutationId, status: "duplicate", seq: 0 })) })],
    ["rejected", (ids: number[]) => ({ type: "reject", mutationId: ids[0], code: "forbidden", issues: [] })],
  ] as const)("an answer (%s) whose transaction fails after the next push left: nothing is dropped, all is pushed again", async (kind, answer) => {
    const started = await pushingTasks(4);
    const { d, records, h } = started;
    let s = started.s;
    const node = (await dbOf(d.db).outbox.get(1))!.mutation.stamp.slice(-16);
    let fail = 0;
    dbOf(d.db).outbox.hook("deleting", () => {
      if (fail > 0) {
        fail--;
        throw new Error("storage failed");
      }
    });
    expect(pushed(s.of("push")[0]!)).toEqual([1, 2]);
    fail = 1;
    const rejected = kind === "rejected";
    if (rejected) {
      // Both refused: two rejects, the second one opens the window.
      s.receive(answer([1]));
      s.receive(answer([2]));
    } else s.receive(answer([1, 2], node));
    // The window opened as the answer arrived: the next push left before its transaction ran.
    expect(s.of("push")).toHaveLength(2);
    expect(pushed(s.of("push")[1]!)).toEqual([3, 4]);
    await until(() => s.closedWith === 4001);
    expect(fail).toBe(0);
    const stampOf = (id: number) => (kind === "re-stamped" && id <= 2 ? `${RESTAMP}${node}` : undefined);
    const echo = rejected ? await echoOf(d, [3, 4], 1) : await echoOf(d, [1, 2, 3, 4], 1, stampOf);
    expect(await dbOf(d.db).outbox.toCollection().primaryKeys()).toEqual([1, 2, 3, 4]);
    expect(await d.db.rejected()).toEqual([]);
    expect(await shown(d, records)).toEqual(["T0", "T1", "T2", "T3"]);

    // The next connection: everything unanswered goes again, in order. The server had applied
    // (or refused) all four on the first socket; it answers accordingly.
    s = await reconnect(h);
    expect(s.of("hello")[0]).toMatchObject({ cursors: { [WORKSPACE]: 0 } });
    await until(() => s.of("push").length === 1);
    expect(pushed(s.of("push")[0]!)).toEqual([1, 2]);
    if (rejected) {
      s.receive(answer([1]));
      s.receive(answer([2]));
    } else {
      s.receive({ type: "ack", acks: [1, 2].map((mutationId) => ({ mutationId, status: "duplicate", seq: mutationId, ...(stampOf(mutationId) ? { stamp: stampOf(mutationId) } : {}) })) });
    }
    await until(() => s.of("push").length === 2);
    expect(pushed(s.of("push")[1]!)).toEqual([3, 4]);
    s.receive({ type: "ack", acks: [3, 4].map((mutationId) => ({ mutationId, status: "duplicate", seq: rejected ? mutationId - 2 : mutationId })) });
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: echo, cursor: echo.length, hasMore: false });
    await h.client.idle();
    expect(await d.db.pendingCount()).toBe(0);
    expect(await d.db.cursor(WORKSPACE)).toBe(echo.length);
    expect((await d.db.rejected()).map((r) => r.mutationId)).toEqual(rejected ? [1, 2] : []);
    expect(await shown(d, records)).toEqual(["T0", "T1", "T2", "T3"]);
    if (kind === "re-stamped") expect((await d.db.get("tasks", records[0]!))?.clocks.title).toBe(`${RESTAMP}${node}`);
    // Nothing is left on top of the confirmed state but the refused ones.
    for (const [i, id] of records.entries()) {
      const row = await dbOf(d.db).records("tasks").get(id);
      expect(row!.local.map((l) => l.status)).toEqual(rejected && i < 2 ? ["rejected"] : []);
    }
    await h.client.stop();
  });

  test("a reconnect between an ack's arrival and its transaction: the ack is dropped with its socket and the mutations are pushed again", async () => {
    const started = await pushingTasks(4);
    const { d, records, h } = started;
    let s = started.s;
    await until(async () => heldCursor((await dbOf(d.db).meta.get(cursorKey(WORKSPACE))) as CursorMeta | undefined) === 0);
    // Another device's change is being applied when the ack comes; the socket drops right after.
    const other = "0190a000-0000-7000-8000-0000000000f1";
    const change = { seq: 1, collection: "tasks", recordId: other, author: "0f0f0f0f-0000-4000-8000-00000000000f", mutationId: 9, op: "put", stamp: SERVER_TIME, fields: task({ title: "otro" }), base: {} };
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: [change], cursor: 1, hasMore: false });
    s.receive({ type: "ack", acks: [1, 2].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId + 1 })) });
    expect(s.of("push")).toHaveLength(2);
    s.drop();
    await until(async () => (await d.db.cursor(WORKSPACE)) === 1);
    // The ack was never applied: the outbox is whole.
    expect(await dbOf(d.db).outbox.toCollection().primaryKeys()).toEqual([1, 2, 3, 4]);

    s = await reconnect(h);
    expect(s.of("hello")[0]).toMatchObject({ cursors: { [WORKSPACE]: 1 } });
    await until(() => s.of("push").length === 1);
    expect(pushed(s.of("push")[0]!)).toEqual([1, 2]);
    // The server applied [1, 2] at 2-3 and [3, 4] at 4-5 on the first socket: duplicates now; the
    // page comes before the acks this time.
    const echo = await echoOf(d, [1, 2, 3, 4], 2);
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: echo, cursor: 5, hasMore: false });
    s.receive({ type: "ack", acks: [1, 2].map((mutationId) => ({ mutationId, status: "duplicate", seq: mutationId + 1 })) });
    await until(() => s.of("push").length === 2);
    s.receive({ type: "ack", acks: [3, 4].map((mutationId) => ({ mutationId, status: "duplicate", seq: mutationId + 1 })) });
    await h.client.idle();
    expect(await d.db.pendingCount()).toBe(0);
    expect(await shown(d, [...records, other])).toEqual(["T0", "T1", "T2", "T3", "otro"]);
    for (const id of records) expect((await dbOf(d.db).records("tasks").get(id))!.local).toEqual([]);
    await h.client.stop();
  });

  test("a resync between a push and its ack: the records stay shown through the new snapshot and are confirmed by the changes after it", async () => {
    const { d, records, h, s } = await pushingTasks(2);
    // The server restarted from a backup: the device must start again from a snapshot. The push
    // commits (seq 8-9) after the snapshot began (its cursor 7, without the two records); the
    // ack comes before the snapshot's page.
    s.receive({ type: "resyncRequired", workspaceId: WORKSPACE, reason: "cursor_in_future" });
    s.receive({ type: "ack", acks: [1, 2].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId + 7 })) });
    await until(() => s.of("pull").length === 1);
    await until(async () => (await d.db.pendingCount()) === 0);
    expect(await shown(d, records)).toEqual(["T0", "T1"]);
    const echo = await (async () => {
      // The outbox rows are gone; the records' local mutations are what the change log carries.
      const rows = await Promise.all(records.map((id) => dbOf(d.db).records("tasks").get(id)));
      return rows.map((r, i) => {
        const l = r!.local[0]!;
        return { seq: 8 + i, collection: "tasks", recordId: r!.id, author: l.mutation.author, mutationId: l.mutationId, op: l.mutation.op, stamp: l.mutation.stamp, fields: l.mutation.fields, base: {} };
      });
    })();
    s.receive({ type: "snapshot", workspaceId: WORKSPACE, records: [], cursor: 7, hasMore: false });
    await until(async () => (await d.db.cursor(WORKSPACE)) === 7);
    // The snapshot did not have them, yet they are neither pending nor gone: still shown.
    expect(await shown(d, records)).toEqual(["T0", "T1"]);
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: echo, cursor: 9, hasMore: false });
    await h.client.idle();
    expect(await d.db.cursor(WORKSPACE)).toBe(9);
    expect(await shown(d, records)).toEqual(["T0", "T1"]);
    for (const id of records) expect((await dbOf(d.db).records("tasks").get(id))!.local).toEqual([]);
    await h.client.stop();
  });

  test("leadership moves while a push is in flight: the new leader pushes it again and its answers settle it", async () => {
    const a = await openDevice();
    const b = await openDevice({ factory: a.factory, name: a.name, clock: a.clock });
    const locks = new MemoryLockManager();
    const ha = harness(a.db, { pushWindow: 1, batchSize: 2 }, { locks });
    const hb = harness(b.db, { pushWindow: 1, batchSize: 2 }, { locks });
    const records: string[] = [];
    for (let i = 0; i < 3; i++) records.push(await created(a.db, `T${i}`));
    ha.client.start();
    hb.client.start();
    const sa = await connect(ha);
    await until(() => sa.of("push").length === 1);
    // The follower tab makes a command meanwhile; the ack of A's push arrives as A stops.
    records.push(await created(b.db, "T3"));
    sa.receive({ type: "ack", acks: [1, 2].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId })) });
    const stopped = ha.client.stop();
    await stopped;
    // Whether A applied that ack before letting go or not, B pushes what the outbox still holds.
    const left = (await dbOf(b.db).outbox.toCollection().primaryKeys()) as number[];
    expect(left[left.length - 1]).toBe(4);
    const sb = await (async () => {
      await until(() => hb.sockets.length === 1);
      const s = hb.last();
      s.open();
      await until(() => s.of("hello").length === 1);
      s.receive(welcome());
      return s;
    })();
    expect(hb.client.leading).toBe(true);
    await until(() => sb.of("push").length === 1);
    expect(pushed(sb.of("push")[0]!)).toEqual(left.slice(0, 2));
    const echo = await echoOf(b, [3, 4], 3);
    for (let i = 0; i < 4 && (await dbOf(b.db).outbox.count()) > 0; i++) {
      const n = sb.of("push").length;
      const ids = pushed(sb.of("push")[n - 1]!);
      sb.receive({ type: "ack", acks: ids.map((mutationId) => ({ mutationId, status: mutationId <= 2 ? "duplicate" : "applied", seq: mutationId })) });
      await until(async () => sb.of("push").length > n || (await dbOf(b.db).outbox.count()) === 0);
    }
    sb.receive({ type: "changes", workspaceId: WORKSPACE, changes: [...(await echoFromRows(b, records.slice(0, 2), 1)), ...echo], cursor: 4, hasMore: false });
    await hb.client.idle();
    expect(await b.db.pendingCount()).toBe(0);
    expect(await shown(b, records)).toEqual(["T0", "T1", "T2", "T3"]);
    for (const id of records) expect((await dbOf(b.db).records("tasks").get(id))!.local).toEqual([]);
    await hb.client.stop();
  });
});

/** Changes carrying the records' local mutations back (their outbox rows may be gone). */
async function echoFromRows(d: { db: ClientDb }, records: string[], first: number) {
  const rows = await Promise.all(records.map((id) => dbOf(d.db).records("tasks").get(id)));
  return rows.map((r, i) => {
    const l = r!.local[0]!;
    return { seq: first + i, collection: "tasks", recordId: r!.id, author: l.mutation.author, mutationId: l.mutationId, op: l.mutation.op, stamp: l.mutation.stamp, fields: l.mutation.fields, base: l.mutation.base ?? {} };
  });
}

// ---------------------------------------------------------------- pages asked for ahead

/** A snapshot page of `n` tasks (ids from `from`), with the token of the next page when it has more. */
function snapshotPage(from: number, n: number, next?: string) {
  const stamp = "2025-03-01T09:00:00.000Z-0000-aaaaaaaaaaaaaaaa";
  const records = Array.from({ length: n }, (_, i) => ({
    collection: "tasks",
    recordId: recordIdOf(from + i),
    seq: 1 + from + i,
    state: { fields: { title: `Tarea ${from + i}`, status: "todo" }, clocks: { title: stamp, status: stamp }, authors: {}, seen: { aaaaaaaaaaaaaaaa: stamp }, conflicts: [] },
  }));
  return { type: "snapshot", workspaceId: WORKSPACE, records, cursor: 500, hasMore: next !== undefined, ...(next ? { pageToken: next } : {}) };
}

function recordIdOf(i: number): string {
  return `0190a000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;
}

/** Opens the first connection of a fresh device (nothing held: a snapshot follows). */
async function openFresh(h: Harness): Promise<FakeSocket> {
  await until(() => h.sockets.length > 0);
  const s = h.last();
  s.open();
  await until(() => s.of("hello").length === 1);
  s.receive(welcome());
  await until(() => h.client.connected);
  return s;
}

describe("pages asked for ahead", () => {
  const pageLength = JSON.stringify(snapshotPage(0, 20, "p-2")).length;

  /** A fresh device whose client counts the pages applied and notes, for each pull it sends,
   * how many pages had been applied then. The test answers each pull once it was sent, as the
   * server does; whether the welcome's processing is over when page 1 arrives does not matter. */
  async function pulling(options: Partial<SyncClientOptions>) {
    const d = await openDevice();
    let applied = 0;
    const h = harness(d.db, {
      ...options,
      onEvent: (e) => {
        if (e.type === "page") applied++;
      },
    });
    h.client.start();
    const s = await openFresh(h);
    const appliedAtPull: number[] = [];
    const send = s.send.bind(s);
    s.send = (data: string) => {
      if ((JSON.parse(data) as { type: string }).type === "pull") appliedAtPull.push(applied);
      send(data);
    };
    const tokens = () => s.of("pull").map((p) => p.pageToken);
    return { d, h, s, appliedAtPull, tokens };
  }

  test("the next page is asked for as a page arrives, while the pages waiting hold less than the budget", async () => {
    // Room for two pages waiting, not three.
    const { d, h, s, appliedAtPull, tokens } = await pulling({ pageBufferBytes: Math.floor(2.5 * pageLength) });
    s.receive(snapshotPage(0, 20, "p-2"));
    await until(() => tokens().length === 1);
    s.receive(snapshotPage(20, 20, "p-3"));
    await until(() => tokens().length === 2);
    s.receive(snapshotPage(40, 20, "p-4"));
    await until(() => tokens().length === 3);
    // Pages 2, 3 and 4 were asked for before page 2 was applied: ahead of their turn.
    expect(appliedAtPull.slice(0, 3).every((n) => n <= 1)).toBe(true);
    // Pages 2, 3 and 4 wait (three pages): over the budget, page 5 is not asked for...
    s.receive(snapshotPage(60, 20, "p-5"));
    expect(tokens()).toEqual(["p-2", "p-3", "p-4"]);
    // ... until page 2 leaves the waiting ones to be applied (page 1 applied by then).
    await until(() => tokens().length === 4);
    expect(tokens()).toEqual(["p-2", "p-3", "p-4", "p-5"]);
    expect(appliedAtPull[3]).toBeGreaterThanOrEqual(1);
    s.receive(snapshotPage(80, 20));
    await h.client.idle();
    expect(s.of("pull")).toHaveLength(4);
    expect(await d.db.cursor(WORKSPACE)).toBe(500);
    expect((await d.db.list("tasks", WORKSPACE)).length).toBe(100);
    await h.client.stop();
  });

  test("applying pages does not read the outbox; a command made meanwhile still leaves at once", async () => {
    const d = await openDevice();
    // Count the pump's reads of the outbox (by mutation id) from the moment page 1 is applied: the
    // welcome's own read of the outbox comes before it (messages are handled in order), whenever
    // the machine gets to it.
    const outbox = dbOf(d.db).outbox;
    const where = outbox.where.bind(outbox);
    let reads = 0;
    let pages = 0;
    outbox.where = ((index: string) => {
      if (index === "mutationId") reads++;
      return where(index);
    }) as typeof outbox.where;
    const h = harness(d.db, {
      onEvent: (e) => {
        if (e.type === "page" && ++pages === 1) reads = 0;
      },
    });
    h.client.start();
    const s = await openFresh(h);
    const tokens = () => s.of("pull").map((p) => p.pageToken);
    s.receive(snapshotPage(0, 20, "p-2"));
    await until(() => tokens().length === 1);
    s.receive(snapshotPage(20, 20, "p-3"));
    await until(() => tokens().length === 2);
    s.receive(snapshotPage(40, 20));
    await h.client.idle();
    expect((await d.db.list("tasks", WORKSPACE)).length).toBe(60);
    expect(pages).toBe(3);
    expect(reads).toBe(0);
    // A command signals the pump itself.
    const id = await created(d.db, "Después de la instantánea");
    await until(() => s.of("push").length === 1);
    expect((s.of("push")[0]!.mutations as { recordId: string }[]).map((m) => m.recordId)).toEqual([id]);
    expect(reads).toBeGreaterThan(0);
    await h.client.stop();
  });

  test("with no budget, the next page is asked for only when a page starts being applied (one page ahead)", async () => {
    const { d, h, s, appliedAtPull, tokens } = await pulling({ pageBufferBytes: 0 });
    s.receive(snapshotPage(0, 20, "p-2"));
    await until(() => tokens().length === 1);
    s.receive(snapshotPage(20, 20, "p-3"));
    await until(() => tokens().length === 2);
    s.receive(snapshotPage(40, 20));
    await h.client.idle();
    // Page k + 1 was asked for when page k started: pages 1 .. k - 1 were applied by then.
    expect(appliedAtPull).toHaveLength(2);
    expect(appliedAtPull[1]).toBeGreaterThanOrEqual(1);
    expect((await d.db.list("tasks", WORKSPACE)).length).toBe(60);
    await h.client.stop();
  });

  test("the default budget (1 MiB): with 600 KB pages, the next page is asked for ahead while one page waits, not while two do", async () => {
    const { d, h, s, appliedAtPull, tokens } = await pulling({});
    // Pages of about 600 KB (the server's pages hold up to about 768 KiB).
    const big = (k: number, next?: string) => snapshotPage(k * 2000, 2000, next);
    expect(JSON.stringify(big(0, "x")).length).toBeGreaterThan(550_000);
    s.receive(big(0, "p-2"));
    await until(() => tokens().length === 1);
    s.receive(big(1, "p-3"));
    await until(() => tokens().length === 2);
    // Page 3 was asked for before page 1 was applied.
    expect(appliedAtPull[1]).toBe(0);
    // Pages 2 and 3 wait (over 1 MiB): page 4 is asked for only when page 2 starts.
    s.receive(big(2, "p-4"));
    expect(tokens()).toEqual(["p-2", "p-3"]);
    await until(() => tokens().length === 3);
    expect(appliedAtPull[2]).toBeGreaterThanOrEqual(1);
    s.receive(big(3));
    await h.client.idle();
    expect((await d.db.list("tasks", WORKSPACE)).length).toBe(8000);
    await h.client.stop();
  });

  test("catching up, changes pages are asked for by cursor as they arrive", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    const s = await connect(h);
    await until(async () => heldCursor((await dbOf(d.db).meta.get(cursorKey(WORKSPACE))) as CursorMeta | undefined) === 0);
    const change = (seq: number) => ({ seq, collection: "tasks", recordId: recordIdOf(seq), author: "0f0f0f0f-0000-4000-8000-00000000000f", mutationId: seq, op: "put", stamp: SERVER_TIME, fields: task({ title: `v${seq}` }), base: {} });
    const page = (from: number, to: number, hasMore: boolean) => ({ type: "changes", workspaceId: WORKSPACE, changes: Array.from({ length: to - from + 1 }, (_, i) => change(from + i)), cursor: to, hasMore });
    s.receive(page(1, 3, true));
    s.receive(page(4, 6, true));
    // Both asked for before either was applied.
    expect(s.of("pull")).toEqual([
      { type: "pull", workspaceId: WORKSPACE, after: 3 },
      { type: "pull", workspaceId: WORKSPACE, after: 6 },
    ]);
    s.receive(page(7, 8, false));
    await h.client.idle();
    expect(await d.db.cursor(WORKSPACE)).toBe(8);
    expect((await d.db.list("tasks", WORKSPACE)).length).toBe(8);
    await h.client.stop();
  });

  test("a page that fails to apply drops the pages fetched ahead; the next connection resumes after the last page applied", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    let s = await openFresh(h);
    const broken = recordIdOf(25);
    dbOf(d.db).records("tasks").hook("creating", (id) => {
      if (id === broken) throw new Error("storage failed");
    });
    s.receive(snapshotPage(0, 20, "p-2"));
    s.receive(snapshotPage(20, 20, "p-3"));
    s.receive(snapshotPage(40, 20, "p-4"));
    expect(s.of("pull").map((p) => p.pageToken)).toEqual(["p-2", "p-3", "p-4"]);
    await until(() => s.closedWith === 4001);
    await until(() => h.timers.pending.size > 0);
    const meta = (await dbOf(d.db).meta.get(cursorKey(WORKSPACE))) as CursorMeta;
    expect(meta.snapshot?.resume).toBe("p-2");
    expect(meta.snapshot?.received).toBe(20);
    // Page 1 only: page 2 failed, page 3 (fetched ahead) was dropped with the socket.
    expect((await d.db.list("tasks", WORKSPACE)).map((t) => t.id)).toEqual(Array.from({ length: 20 }, (_, i) => recordIdOf(i)));
    h.timers.fire();
    await until(() => h.sockets.length === 2);
    s = h.last();
    s.open();
    await until(() => s.of("hello").length === 1);
    expect(s.of("hello")[0]).toMatchObject({ cursors: { [WORKSPACE]: null }, resume: { [WORKSPACE]: "p-2" } });
    await h.client.stop();
  });
});

// ---------------------------------------------------------------- a database replaced under a running client

describe("a device database deleted and made again under a running sync client (issue #17)", () => {
  /** Tab A leads with mutation 1 pushed and unanswered; tab B signs out (the database is deleted)
   * and in again, and makes a command: a new device database under the same name whose outbox
   * starts again at mutation id 1. */
  async function signOutAndInElsewhere(options: { beforeDelete?: (d: Awaited<ReturnType<typeof openDevice>>) => Promise<void> } = {}) {
    const d = await openDevice();
    await created(d.db, "T0");
    const h = harness(d.db);
    h.client.start();
    const s = await connect(h);
    await until(() => s.of("push").length === 1);
    expect(pushed(s.of("push")[0]!)).toEqual([1]);
    await options.beforeDelete?.(d);
    const other = await openDevice({ factory: d.factory, name: d.name, clock: d.clock });
    await other.db.destroy();
    const fresh = await openDevice({ factory: d.factory, name: d.name, clock: d.clock });
    await created(fresh.db, "nuevo");
    expect(fresh.db.clientId).not.toBe(d.db.clientId);
    return { d, h, s, fresh };
  }

  /** Lets every pending task of the old client run (its drain, pump and link writes). */
  async function settle() {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 5));
  }

  test("the ack of the old socket never removes the new database's outbox row of the same id", async () => {
    const { d, h, s, fresh } = await signOutAndInElsewhere();
    s.receive({ type: "ack", acks: [{ mutationId: 1, status: "applied", seq: 1 }] });
    await settle();
    expect(await dbOf(fresh.db).outbox.toCollection().primaryKeys()).toEqual([1]);
    expect((await dbOf(fresh.db).outbox.get(1))?.mutation.author).toBe(fresh.db.clientId);
    // The deletion closed the old handle for good: its client stopped and let the lock go.
    expect(dbOf(d.db).gone).toBe("deleted");
    await until(() => !h.client.leading);
    expect(h.locks.held(lockName(d.name))).toBe(false);
    expect(s.closedWith).toBe(1000);
    // The old handle never reopens onto the new database.
    await expect(d.db.create("tasks", WORKSPACE, task())).rejects.toThrow();
    expect(await dbOf(fresh.db).outbox.count()).toBe(1);
    await h.client.stop();
  });

  test("the old leader never pushes the new database's outbox; the new device's client does, as its own", async () => {
    const { d, h, s, fresh } = await signOutAndInElsewhere();
    // The old connection ends (as the server would end it); any reconnect timer fires.
    s.drop();
    await settle();
    h.timers.fire();
    await settle();
    // Nothing more went out on the old socket and the old client opened no other socket (it would
    // say hello with its old client id and push the new database's mutation 1).
    expect(s.of("push")).toHaveLength(1);
    expect(h.sockets).toHaveLength(1);
    await until(() => !h.client.leading);
    expect(h.locks.held(lockName(d.name))).toBe(false);
    // Starting the old client again does nothing: its handle is closed for good.
    h.client.start();
    await settle();
    expect(h.sockets).toHaveLength(1);
    // The new tab's client takes the lock and pushes mutation 1 of the new database under the
    // new client id.
    const h2 = harness(fresh.db, {}, { locks: h.locks });
    h2.client.start();
    const s2 = await connect(h2);
    await until(() => s2.of("push").length === 1);
    expect(s2.of("hello")[0]).toMatchObject({ clientId: fresh.db.clientId });
    expect(pushed(s2.of("push")[0]!)).toEqual([1]);
    expect(d.db.clientId).not.toBe(fresh.db.clientId);
    await h2.client.stop();
    await h.client.stop();
  });

  test("a client waiting in the election's queue leaves it when its database is deleted: it never leads", async () => {
    // The leader's database lives in another IndexedDB factory (it is not deleted); the lock is
    // the same (named after the database), so the follower waits behind it.
    const leaderDevice = await openDevice();
    const h = harness(leaderDevice.db);
    h.client.start();
    await connect(h);
    const follower = await openDevice({ name: leaderDevice.name });
    const events: string[] = [];
    const hf = harness(follower.db, { onEvent: (e) => events.push(e.type) }, { locks: h.locks });
    hf.client.start();
    await settle();
    expect(hf.client.leading).toBe(false);
    // The follower's database is deleted (a sign-out in another of its tabs).
    const other = await openDevice({ factory: follower.factory, name: follower.name, clock: follower.clock });
    await other.db.destroy();
    expect(dbOf(follower.db).gone).toBe("deleted");
    // The leader stops: nobody waits for the lock any more.
    await h.client.stop();
    await settle();
    expect(h.locks.held(lockName(leaderDevice.name))).toBe(false);
    expect(events).not.toContain("leader");
    expect(hf.sockets).toHaveLength(0);
    await hf.client.stop();
  });

  test("a handle that missed the deletion (closed to reopen, as for an upgrade) finds another device's database and stops, writing nothing", async () => {
    const { d, h, s, fresh } = await signOutAndInElsewhere({
      // Dexie closes a connection this way when another tab upgrades the schema: it reopens on
      // the next access, so the deletion reaches no open connection of this handle.
      beforeDelete: async (dev) => {
        await settle();
        dbOf(dev.db).close({ disableAutoOpen: false });
        expect(dbOf(dev.db).isOpen()).toBe(false);
      },
    });
    // The new database's command woke the old leader's pump: its read reopened the handle, which
    // found another device's database, closed for good and stopped the client before reading.
    s.receive({ type: "ack", acks: [{ mutationId: 1, status: "applied", seq: 1 }] });
    await settle();
    expect(await dbOf(fresh.db).outbox.toCollection().primaryKeys()).toEqual([1]);
    expect(s.of("push")).toHaveLength(1);
    expect(h.sockets).toHaveLength(1);
    expect(dbOf(d.db).gone).toBe("replaced");
    await until(() => !h.client.leading);
    expect(h.locks.held(lockName(d.name))).toBe(false);
    await h.client.stop();
  });
});
