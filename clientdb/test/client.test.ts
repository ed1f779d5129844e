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

  test("failed connections are retried on the backoff schedule, which a welcome resets", async () => {
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

    // A connection that gets its welcome starts the schedule again.
    await connect(h);
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
    const other = (n: number) => `0190a000-0000-7000-8000-0000000000f${n}`;
    const page = (seq: number) => ({
      type: "changes",
      workspaceId: WORKSPACE,
      changes: [{ seq, collection: "tasks", recordId: other(seq), author: "0f0f0f0f-0000-4000-8000-00000000000f", mutationId: seq, op: "put", stamp: SERVER_TIME, fields: task(), base: {} }],
      cursor: seq,
      hasMore: false,
    });
    s.receive(page(1));
    s.receive(page(2));
    s.receive({ type: "ack", acks: [1, 2].map((mutationId) => ({ mutationId, status: "applied", seq: mutationId + 2 })) });
    await until(() => atPage.has(2));
    // When the second page was applied, the second push had left.
    expect(atPage.get(2)).toBe(2);
    expect(ids(s.of("push")[1]!)).toEqual([3, 4]);
    expect(await d.db.cursor(WORKSPACE)).toBe(2);
    expect((await dbOf(d.db).outbox.toCollection().primaryKeys()).sort()).toEqual([3, 4]);
    expect((await d.db.get("tasks", other(2)))?.fields.title).toBe(task().title);
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

  test("resyncRequired starts a snapshot again and keeps the outbox", async () => {
    const d = await openDevice();
    await d.db.create("tasks", WORKSPACE, task());
    const h = harness(d.db);
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
    ["connecting is offline", { ...base, link: { ...online, state: "connecting" as const } }, "offline"],
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
