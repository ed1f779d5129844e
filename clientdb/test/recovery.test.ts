// How the sync client behaves when things keep failing: the reconnect backoff grows until the sync
// makes progress (a welcome alone is not progress), a failure on the device is shown in the link
// row, a fatal error hands leadership to another tab, a stale link row of a previous session is
// replaced at start, and a denied workspace leaves the hellos.
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { describe, expect, test } from "vitest";
import { backoffDelay, seededRandom } from "../src/backoff";
import { SyncClient, type SyncClientOptions, type SyncEvent } from "../src/client";
import { dbOf, type ClientDb } from "../src/clientdb";
import { MemoryLockManager, lockName } from "../src/leader";
import { statusOf } from "../src/hooks";
import { FakeNetwork, FakeSocket, FakeTimers, OTHER_WORKSPACE, WORKSPACE, openDevice, task, until } from "./support";

const SERVER_TIME = "2025-03-01T10:00:00.000Z-0000-5e5e5e5e5e5e5e5e";
const welcome = {
  type: "welcome",
  protocolVersion: PROTOCOL_VERSION,
  schemaVersion: SCHEMA_VERSION,
  serverTime: SERVER_TIME,
  limits: { maxMessageBytes: 1_048_576, maxMutationsPerPush: 500, maxChangesPerPage: 500, maxMessagesPerSecond: 100 },
};
const SEED = 11;

function harness(db: ClientDb, options: Partial<SyncClientOptions> = {}, locks = new MemoryLockManager()) {
  const sockets: FakeSocket[] = [];
  const timers = new FakeTimers();
  const network = new FakeNetwork();
  const events: SyncEvent[] = [];
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
    pagesWaitBytes: 0,
    backoff: { random: seededRandom(SEED) },
    onEvent: (e) => events.push(e),
    ...options,
  });
  const retries = () => events.filter((e) => e.type === "retry").map((e) => (e.detail as { delay: number }).delay);
  return { client, sockets, timers, network, locks, events, retries, last: () => sockets[sockets.length - 1]! };
}

/** The reconnect delays of attempts 0..n-1 with the harness's seed. */
function schedule(n: number): number[] {
  const random = seededRandom(SEED);
  return Array.from({ length: n }, (_, i) => backoffDelay(i, { random }));
}

/** Opens the newest socket and answers its hello with a welcome. */
async function welcomed(h: ReturnType<typeof harness>): Promise<FakeSocket> {
  await until(() => h.sockets.length > 0 && h.last().readyState === 0);
  const s = h.last();
  s.open();
  await until(() => s.of("hello").length === 1);
  s.receive(welcome);
  return s;
}

/** Fires the pending reconnect (not the 60 s answer watchdog). */
async function fireRetry(h: ReturnType<typeof harness>, count: number): Promise<void> {
  await until(() => h.retries().length === count);
  h.timers.fire((ms) => ms < 60_000);
}

const emptyChanges = (cursor: number) => ({ type: "changes", workspaceId: WORKSPACE, changes: [], cursor, hasMore: false });
const emptySnapshot = { type: "snapshot", workspaceId: WORKSPACE, records: [], cursor: 0, hasMore: false };

describe("failures after the welcome back off", () => {
  test("a push the server fails on every connection (1011 after the welcome): the delay keeps growing", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    h.client.start();
    // The first connection makes progress (the first snapshot): the schedule starts from there.
    let s = await welcomed(h);
    s.receive(emptySnapshot);
    await h.client.idle();
    await d.db.create("tasks", WORKSPACE, task());
    await until(() => s.of("push").length === 1);
    for (let i = 0; i < 6; i++) {
      s.receive({ type: "error", code: "internal", message: "boom" });
      s.drop(1011);
      await fireRetry(h, i + 1);
      s = await welcomed(h);
      s.receive(emptyChanges(0));
      await until(() => s.of("push").length === 1);
    }
    expect(h.retries()).toEqual(schedule(6));
    expect(h.retries()[5]).toBeGreaterThanOrEqual(8000);

    // The server acks it: progress, so the next drop retries at the base delay again.
    s.receive({ type: "ack", acks: [{ mutationId: 1, seq: 1 }] });
    await until(async () => (await d.db.pendingCount()) === 0);
    s.drop(1006);
    await until(() => h.retries().length === 7);
    expect(h.retries()[6]).toBeLessThanOrEqual(500);
    await h.client.stop();
  });

  test("storage full while applying a page: backs off, the link row says storage_full until a page is applied", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    let full = true;
    dbOf(d.db)
      .records("tasks")
      .hook("creating", () => {
        if (full) throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
      });
    const page = {
      type: "snapshot",
      workspaceId: WORKSPACE,
      records: [
        {
          collection: "tasks",
          recordId: "0190a000-0000-7000-8000-0000000000f1",
          seq: 1,
          state: { fields: task(), clocks: { title: SERVER_TIME, status: SERVER_TIME }, authors: { title: "a", status: "a" }, seen: {}, conflicts: [] },
        },
      ],
      cursor: 1,
      hasMore: false,
    };
    h.client.start();
    for (let i = 0; i < 4; i++) {
      const s = await welcomed(h);
      s.receive(page);
      await until(() => s.closedWith === 4001);
      expect((await d.db.link())?.error).toBe("storage_full");
      expect((await statusOf(dbOf(d.db))).error).toBe("storage_full");
      await fireRetry(h, i + 1);
    }
    expect(h.retries()).toEqual(schedule(4));
    expect(h.events.some((e) => e.type === "error" && (e.detail as Error).name === "QuotaExceededError")).toBe(true);

    // Space freed: the page applies, the error goes, the status is synced.
    full = false;
    const s = await welcomed(h);
    s.receive(page);
    await h.client.idle();
    await until(async () => (await d.db.link())?.error === undefined);
    expect((await statusOf(dbOf(d.db))).state).toBe("synced");
    await h.client.stop();
  });

  test("a page that cannot be applied for another reason says local_error", async () => {
    const d = await openDevice();
    const h = harness(d.db);
    dbOf(d.db)
      .records("tasks")
      .hook("creating", () => {
        throw new Error("broken");
      });
    h.client.start();
    const s = await welcomed(h);
    s.receive({
      type: "snapshot",
      workspaceId: WORKSPACE,
      records: [{ collection: "tasks", recordId: "0190a000-0000-7000-8000-0000000000f1", seq: 1, state: { fields: task(), clocks: { title: SERVER_TIME, status: SERVER_TIME }, authors: { title: "a", status: "a" }, seen: {}, conflicts: [] } }],
      cursor: 1,
      hasMore: false,
    });
    await until(() => s.closedWith === 4001);
    await until(async () => (await d.db.link())?.error === "local_error");
    await h.client.stop();
  });
});

describe("a fatal error hands leadership over", () => {
  test.each([
    ["protocol_version", 4426],
    ["unauthorized", 4401],
  ])("a leader stopped by %s leaves the election: the other tab leads and pushes its writes", async (code, close) => {
    const a = await openDevice();
    const b = await openDevice({ factory: a.factory, name: a.name, clock: a.clock });
    const locks = new MemoryLockManager();
    const fatal: string[] = [];
    const ha = harness(a.db, { onFatal: (c) => fatal.push(c) }, locks);
    const hb = harness(b.db, {}, locks);
    ha.client.start();
    hb.client.start();
    await until(() => ha.sockets.length === 1);
    const s = ha.last();
    s.open();
    await until(() => s.of("hello").length === 1);
    s.receive({ type: "error", code, message: "stop" });
    s.drop(close);
    expect(fatal).toEqual([code]);
    await until(() => !ha.client.leading);
    await until(() => hb.client.leading);
    await b.db.create("tasks", WORKSPACE, task());
    const sb = await welcomed(hb);
    sb.receive(emptySnapshot);
    await until(() => sb.of("push").length === 1);
    // The new leader's connection replaces the stopped one's error.
    await until(async () => (await b.db.link())?.error === undefined);
    expect(ha.sockets).toHaveLength(1);

    // The stopped tab does not queue again: when the other one stops, nobody leads.
    await hb.client.stop();
    expect(locks.held(lockName(a.name))).toBe(false);
    expect(ha.client.leading).toBe(false);
    await ha.client.stop();
  });
});

describe("the link row at start", () => {
  test("a previous session's leader closed while synced, the app opened offline: the status says offline", async () => {
    const d = await openDevice();
    const h1 = harness(d.db);
    h1.client.start();
    const s = await welcomed(h1);
    s.receive(emptySnapshot);
    await h1.client.idle();
    await until(async () => (await d.db.link())?.state === "online");
    // The tab closes without stop() (an unload runs no cleanup); the app starts again offline.
    const db = await d.reopen();
    await db.create("tasks", WORKSPACE, task());
    const h2 = harness(db);
    h2.network.set(false);
    h2.client.start();
    await until(() => h2.client.leading);
    await until(async () => (await db.link())?.state === "offline");
    const status = await statusOf(dbOf(db));
    expect(status.state).toBe("offline");
    expect(status.pending).toBe(1);
    expect(h2.sockets).toHaveLength(0);
    await h2.client.stop();
  });

  test("a stored fatal error (the app was too old) is not shown by an updated app that starts offline", async () => {
    const d = await openDevice();
    await dbOf(d.db).meta.put({ key: "link", state: "offline", busy: false, error: "protocol_version", lastSyncedAt: 5, at: 5 });
    const h = harness(d.db);
    h.network.set(false);
    h.client.start();
    await until(() => h.client.leading);
    await until(async () => (await d.db.link())?.error === undefined);
    const link = await d.db.link();
    expect(link).toMatchObject({ state: "offline", busy: false, lastSyncedAt: 5 });
    await h.client.stop();
  });
});

describe("a workspace the server denies", () => {
  test("leaves the hellos and what the status waits for; the app is told", async () => {
    const d = await openDevice();
    const denied: string[] = [];
    const h = harness(d.db, { workspaces: () => [WORKSPACE, OTHER_WORKSPACE], onAccessDenied: (w) => denied.push(w) });
    h.client.start();
    let s = await welcomed(h);
    expect(Object.keys(s.of("hello")[0]!.cursors as object).sort()).toEqual([WORKSPACE, OTHER_WORKSPACE].sort());
    s.receive(emptySnapshot);
    s.receive({ type: "accessDenied", workspaceId: OTHER_WORKSPACE, reason: "not_a_member" });
    await h.client.idle();
    expect(denied).toEqual([OTHER_WORKSPACE]);
    await until(async () => (await statusOf(dbOf(d.db))).state === "synced");

    s.drop(1006);
    await fireRetry(h, 1);
    s = await welcomed(h);
    expect(s.of("hello")[0]!.cursors).toEqual({ [WORKSPACE]: 0 });
    await h.client.stop();
  });
  test("a workspace the device holds but the app no longer lists (left, or removed while the list was asked first) is asked too, so that its data leaves the device", async () => {
    const d = await openDevice();
    // First synced as a member of both.
    const first = harness(d.db, { workspaces: () => [WORKSPACE, OTHER_WORKSPACE] });
    first.client.start();
    let s = await welcomed(first);
    s.receive(emptySnapshot);
    s.receive({ ...emptySnapshot, workspaceId: OTHER_WORKSPACE });
    await first.client.idle();
    await d.db.create("tasks", OTHER_WORKSPACE, task());
    await first.client.stop();
    const held = () => dbOf(d.db).records("tasks").where("[workspaceId+deleted]").between([OTHER_WORKSPACE, 0], [OTHER_WORKSPACE, 1], true, true).count();
    expect(await held()).toBe(1);
    expect(await dbOf(d.db).outbox.where("workspaceId").equals(OTHER_WORKSPACE).count()).toBe(1);

    // The user left OTHER_WORKSPACE: the app's list no longer has it.
    const denied: string[] = [];
    const h = harness(d.db, { workspaces: () => [WORKSPACE], onAccessDenied: (w) => denied.push(w) });
    h.client.start();
    s = await welcomed(h);
    expect(s.of("hello")[0]!.cursors).toEqual({ [WORKSPACE]: 0, [OTHER_WORKSPACE]: 0 });
    s.receive({ type: "changes", workspaceId: WORKSPACE, changes: [], cursor: 0, hasMore: false });
    // The change made there before leaving is pushed and refused, as the server does, then the
    // workspace is denied.
    await until(() => s.of("push").length > 0);
    for (const m of s.of("push")[0]!.mutations as { mutationId: number }[]) {
      s.receive({ type: "reject", mutationId: m.mutationId, code: "not_found", issues: [{ path: "", key: "sync.reject.notMember", params: {} }] });
    }
    s.receive({ type: "accessDenied", workspaceId: OTHER_WORKSPACE, reason: "not_a_member" });
    await h.client.idle();
    expect(denied).toEqual([OTHER_WORKSPACE]);
    expect(await dbOf(d.db).outbox.where("workspaceId").equals(OTHER_WORKSPACE).count()).toBe(0);
    // No refused change left behind for a workspace the user is no longer in.
    expect(await dbOf(d.db).rejected.where("workspaceId").equals(OTHER_WORKSPACE).count()).toBe(0);
    expect(await held()).toBe(0);
    await until(async () => (await statusOf(dbOf(d.db))).state === "synced");
    await h.client.stop();
  });
});
