// Against the REAL server (built from source, SQLite in a temp dir): two devices of one user sync
// through /api/v1/sync. One goes offline, edits across a reload; the other edits the same field;
// on reconnect both converge, the conflict is recorded with the losing value on both, and
// restoring it syncs back.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import WebSocket from "ws";
import { SyncClient, type NetworkLike } from "../src/client";
import { dbOf, type ClientDb } from "../src/clientdb";
import { uuidv4 } from "../src/ids";
import { MemoryLockManager } from "../src/leader";
import { nodeSocket, openNodeDevice, signIn, signUp, syncUrlOf, type Session } from "../src/node";
import { encodeHello, encodePush } from "../src/wire";
import { saveVaultKey } from "../src/features/logins";
import { buildServer, startServer, type RealServer } from "./realServer";
import { FakeNetwork, until } from "./support";

let dir: string;
let server: RealServer;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "patrimonio-bin-"));
  server = await startServer(buildServer(dir));
}, 300_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** JSON with sorted keys: equal states give equal strings. */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, value: unknown) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, (value as Record<string, unknown>)[k]]));
  });
}

function client(db: ClientDb, session: Session, workspaceId: string, network: NetworkLike, events: string[]): SyncClient {
  return new SyncClient(db, {
    url: syncUrlOf(server.url),
    workspaces: () => [workspaceId],
    socket: nodeSocket({ origin: server.url, cookie: session.cookie }),
    locks: new MemoryLockManager(),
    network,
    backoff: { baseMs: 50, maxMs: 500 },
    onEvent: (e) => events.push(`${e.type} ${JSON.stringify(e.detail ?? "")}`),
  });
}

/** Opens a raw socket, sends hello, and returns the first answer (or how the handshake failed). */
function firstAnswer(session: Session | undefined, origin: string, workspace: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = new WebSocket(syncUrlOf(server.url), { headers: { Origin: origin, ...(session ? { Cookie: session.cookie } : {}) } });
    socket.on("unexpected-response", (_req, res) => resolve(`HTTP ${res.statusCode}`));
    socket.on("error", (err) => resolve(`error ${err.message}`));
    socket.on("open", () =>
      socket.send(JSON.stringify({ type: "hello", protocolVersion: PROTOCOL_VERSION, schemaVersion: SCHEMA_VERSION, clientId: uuidv4(), cursors: { [workspace]: null } })),
    );
    socket.on("message", (data) => {
      resolve(String((JSON.parse(String(data)) as { type: string; code?: string }).type));
      socket.close();
    });
    socket.on("close", (code) => resolve(`closed ${code}`));
  });
}

describe("the sync endpoint", () => {
  test("answers a signed-in hello with welcome, and refuses other origins and anonymous sockets", { timeout: 60_000 }, async () => {
    const session = await signUp(server.url, `hello-${Date.now()}@example.com`, "correct horse battery staple 42");
    const ws = session.workspaces[0]!.id;
    expect(await firstAnswer(session, server.url, ws)).toBe("welcome");
    expect(await firstAnswer(session, "http://evil.example", ws)).toBe("HTTP 403");
    expect(await firstAnswer(undefined, server.url, ws)).toBe("error");
  });
});

describe("two devices against the real server", () => {
  test("offline edits and a concurrent edit converge; the loser is a conflict that can be restored", { timeout: 120_000 }, async () => {
    const email = `sync-${Date.now()}@example.com`;
    const password = "correct horse battery staple 42";
    const sessionA = await signUp(server.url, email, password);
    const sessionB = await signIn(server.url, email, password);
    const workspace = sessionA.workspaces.find((w) => w.kind === "personal")?.id;
    expect(workspace, "sign-up makes a personal workspace").toBeDefined();
    const ws = workspace!;
    const events: string[] = [];
    const report = () => `\nclient events:\n${events.slice(-40).join("\n")}\nserver output:\n${server.output().slice(-4000)}`;

    const a = await openNodeDevice({ name: "device-a" });
    const b = await openNodeDevice({ name: "device-b" });
    const netA = new FakeNetwork();
    const netB = new FakeNetwork();
    let syncA = client(a.db, sessionA, ws, netA, events);
    const syncB = client(b.db, sessionB, ws, netB, events);
    syncA.start();
    syncB.start();
    await Promise.all([syncA.idle(), syncB.idle()]);
    expect(syncA.connected && syncB.connected, report()).toBe(true);

    // A creates a task; it reaches B live.
    const created = await a.db.create("tasks", ws, { title: "Pagar el IBI", status: "todo" });
    if (!created.ok) throw new Error(JSON.stringify(created.issues));
    const id = created.id;
    await until(async () => (await b.db.get("tasks", id)) !== undefined);
    expect((await b.db.get("tasks", id))?.fields).toEqual({ title: "Pagar el IBI", status: "todo" });
    // B can have the change before A has handled its ack (the fan-out and the ack race): wait for it.
    await until(async () => (await a.db.pendingCount()) === 0);

    // A goes offline and edits, then the app reloads (new handle on the same data, new client).
    netA.set(false);
    await until(() => !syncA.connected);
    await a.db.update("tasks", id, { title: "Pagar el IBI (A)", notes: "hecho sin conexión" });
    await syncA.stop();
    a.db.close();
    const a2 = await openNodeDevice({ name: "device-a", factory: a.factory });
    expect(a2.db.clientId).toBe(a.db.clientId);
    expect(await a2.db.pendingCount()).toBe(1);
    expect((await a2.db.get("tasks", id))?.fields.title).toBe("Pagar el IBI (A)");

    // Meanwhile B edits the same field, online (later, so its stamp is higher).
    await new Promise((r) => setTimeout(r, 5));
    await b.db.update("tasks", id, { title: "Pagar el IBI (B)" });
    await syncB.idle();

    // A comes back.
    syncA = client(a2.db, sessionA, ws, netA, events);
    netA.set(true);
    syncA.start();
    await syncA.idle();
    await until(async () => (await a2.db.cursor(ws)) === (await b.db.cursor(ws)) && (await a2.db.cursor(ws)) > 0);
    await syncB.idle();

    // Both hold the server's state, the same on both.
    const stateA = await a2.db.confirmed("tasks", id);
    const stateB = await b.db.confirmed("tasks", id);
    expect(canonical(stateA), report()).toBe(canonical(stateB));
    const recA = await a2.db.get("tasks", id);
    const recB = await b.db.get("tasks", id);
    expect(recA?.fields).toEqual({ title: "Pagar el IBI (B)", status: "todo", notes: "hecho sin conexión" });
    expect(recB?.fields).toEqual(recA?.fields);
    expect(recA?.pending).toBe(0);

    // The losing title is a conflict on both devices, with A as its author.
    const conflictsB = await b.db.conflicts(ws);
    expect(conflictsB.map((c) => ({ field: c.field, value: c.value, author: c.author, current: c.current }))).toEqual([
      { field: "title", value: "Pagar el IBI (A)", author: a.db.clientId, current: "Pagar el IBI (B)" },
    ]);
    expect((await a2.db.conflicts(ws)).map((c) => c.id)).toEqual(conflictsB.map((c) => c.id));

    // B restores the losing value: it syncs back to A and the conflict closes everywhere.
    expect(await b.db.restoreConflict(conflictsB[0]!.id)).toEqual({ ok: true });
    await syncB.idle();
    await until(async () => (await a2.db.get("tasks", id))?.fields.title === "Pagar el IBI (A)");
    await until(async () => (await a2.db.conflicts(ws)).length === 0);
    expect(await b.db.conflicts(ws)).toEqual([]);
    expect(canonical(await a2.db.confirmed("tasks", id))).toBe(canonical(await b.db.confirmed("tasks", id)));

    await Promise.all([syncA.stop(), syncB.stop()]);
    a2.db.close();
    b.db.close();
  });

  test("two passphrase changes at once: the losing wrapping is kept whole (salt and wrapped key) on both devices, and restoring it brings it back whole", { timeout: 120_000 }, async () => {
    const email = `vault-${Date.now()}@example.com`;
    const password = "correct horse battery staple 42";
    const sessionA = await signUp(server.url, email, password);
    const sessionB = await signIn(server.url, email, password);
    const ws = sessionA.workspaces.find((w) => w.kind === "personal")!.id;
    const events: string[] = [];
    const report = () => `\nclient events:\n${events.slice(-40).join("\n")}\nserver output:\n${server.output().slice(-4000)}`;
    const a = await openNodeDevice({ name: "vault-a" });
    const b = await openNodeDevice({ name: "vault-b" });
    const netA = new FakeNetwork();
    const syncA = client(a.db, sessionA, ws, netA, events);
    const syncB = client(b.db, sessionB, ws, new FakeNetwork(), events);
    syncA.start();
    syncB.start();
    await Promise.all([syncA.idle(), syncB.idle()]);
    const wrapping = (salt: string, body: string) => ({
      keyId: "AAECAwQFBgc",
      kdf: { algorithm: "argon2id" as const, memoryKiB: 65536, iterations: 3, parallelism: 1, salt: `${salt}ECAwQFBgcICQoLDA0ODw` },
      wrappedKey: `v1.AAECAwQFBgcICQoL.${body.repeat(64)}`,
    });
    const created = await saveVaultKey(a.db, ws, wrapping("AA", "A"));
    if (!created.ok) throw new Error(JSON.stringify(created.issues));
    const id = created.id;
    await until(async () => (await b.db.get("vaultKeys", id)) !== undefined);
    await until(async () => (await a.db.pendingCount()) === 0);

    // A changes the passphrase offline; B changes it online, later (its stamp wins).
    netA.set(false);
    await until(() => !syncA.connected);
    const mine = wrapping("BB", "B");
    expect((await saveVaultKey(a.db, ws, mine, id)).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 5));
    const theirs = wrapping("CC", "C");
    expect((await saveVaultKey(b.db, ws, theirs, id)).ok).toBe(true);
    await syncB.idle();
    netA.set(true);
    await syncA.idle();
    await until(async () => (await a.db.cursor(ws)) === (await b.db.cursor(ws)) && (await a.db.pendingCount()) === 0);
    await until(async () => (await b.db.conflicts(ws)).length === 2);

    for (const db of [a.db, b.db]) {
      expect((await db.get("vaultKeys", id))?.fields, report()).toEqual(theirs);
      const lost = await db.conflicts(ws);
      expect(new Set(lost.map((c) => c.stamp)).size).toBe(1);
      expect(Object.fromEntries(lost.map((c) => [c.field, c.value]))).toEqual({ kdf: mine.kdf, wrappedKey: mine.wrappedKey });
    }
    // A keeps its passphrase: the whole wrapping comes back on both, the conflicts close everywhere.
    const stamp = (await a.db.conflicts(ws))[0]!.stamp;
    expect(await a.db.restoreWrite("vaultKeys", id, stamp)).toEqual({ ok: true });
    await syncA.idle();
    await until(async () => canonical((await b.db.get("vaultKeys", id))?.fields) === canonical(mine));
    await until(async () => (await b.db.conflicts(ws)).length === 0);
    expect(await a.db.conflicts(ws)).toEqual([]);
    expect(canonical(await a.db.confirmed("vaultKeys", id))).toBe(canonical(await b.db.confirmed("vaultKeys", id)));

    await Promise.all([syncA.stop(), syncB.stop()]);
    a.db.close();
    b.db.close();
  });

  test("a device's earlier edit decided after its later one (out of order) keeps its losing title as a conflict on every device", { timeout: 120_000 }, async () => {
    const email = `late-${Date.now()}@example.com`;
    const password = "correct horse battery staple 42";
    const sessionA = await signUp(server.url, email, password);
    const sessionB = await signIn(server.url, email, password);
    const ws = sessionA.workspaces[0]!.id;
    const events: string[] = [];
    const report = () => `\nclient events:\n${events.slice(-40).join("\n")}\nserver output:\n${server.output().slice(-4000)}`;
    const a = await openNodeDevice({ name: "late-a" });
    const b = await openNodeDevice({ name: "late-b" });
    const netA = new FakeNetwork();
    const syncA = client(a.db, sessionA, ws, netA, events);
    const syncB = client(b.db, sessionB, ws, new FakeNetwork(), events);
    syncA.start();
    syncB.start();
    const created = await a.db.create("tasks", ws, { title: "Pagar el IBI", status: "todo" });
    if (!created.ok) throw new Error(JSON.stringify(created.issues));
    const id = created.id;
    await until(async () => (await b.db.get("tasks", id)) !== undefined && (await a.db.pendingCount()) === 0);

    // Offline, A retitles the task (its edit 6, say), then sets its status (7).
    netA.set(false);
    await until(() => !syncA.connected);
    await a.db.update("tasks", id, { title: "Pagar el IBI (A)" });
    await a.db.update("tasks", id, { status: "done" });
    const [edit6, edit7] = await dbOf(a.db).outbox.orderBy("mutationId").toArray();
    expect(edit6?.mutation.fields).toEqual({ title: "Pagar el IBI (A)" });
    // B, who never saw A's title, retitles it later.
    await new Promise((r) => setTimeout(r, 5));
    await b.db.update("tasks", id, { title: "Pagar el IBI (B)" });
    await syncB.idle();

    // Edit 7 reaches the server first, on another socket with A's client id (as a resend racing
    // the original, or A on a second instance, can make happen).
    const raw = new WebSocket(syncUrlOf(server.url), { headers: { Origin: server.url, Cookie: sessionA.cookie } });
    const acked = new Promise<string>((resolve, reject) => {
      raw.on("error", reject);
      raw.on("message", (data) => {
        const msg = JSON.parse(String(data)) as { type: string };
        if (msg.type === "welcome") raw.send(encodePush([edit7!]));
        if (msg.type === "ack" || msg.type === "reject" || msg.type === "error") resolve(String(data));
      });
    });
    raw.on("open", () => raw.send(encodeHello(a.db.clientId, { [ws]: null })));
    expect(JSON.parse(await acked)).toMatchObject({ type: "ack", acks: [{ mutationId: edit7!.mutationId }] });
    raw.close();

    // A comes back and pushes 6 and 7: 6 is decided now, after 7 (changes: the creation, B's title,
    // 7, 6).
    netA.set(true);
    await until(async () => (await a.db.pendingCount()) === 0 && (await a.db.cursor(ws)) === (await b.db.cursor(ws)) && (await b.db.cursor(ws)) === 4);
    await syncB.idle();

    // A's title lost to B's later one, and is kept as a conflict by A, on both devices and on a
    // third one that starts from a snapshot.
    const want = [{ field: "title", value: "Pagar el IBI (A)", author: a.db.clientId, current: "Pagar el IBI (B)" }];
    const shown = async (db: ClientDb) => (await db.conflicts(ws)).map((c) => ({ field: c.field, value: c.value, author: c.author, current: c.current }));
    expect(await shown(b.db), report()).toEqual(want);
    expect(await shown(a.db), report()).toEqual(want);
    expect((await a.db.get("tasks", id))?.fields).toEqual({ title: "Pagar el IBI (B)", status: "done" });
    const stateA = await a.db.confirmed("tasks", id);
    expect(stateA?.late, "the state remembers the late edit it applied").toEqual([edit6!.mutation.stamp]);
    expect(canonical(stateA)).toBe(canonical(await b.db.confirmed("tasks", id)));
    const c = await openNodeDevice({ name: "late-c" });
    const syncC = client(c.db, sessionB, ws, new FakeNetwork(), events);
    syncC.start();
    await until(async () => (await c.db.cursor(ws)) === (await b.db.cursor(ws)));
    expect(await shown(c.db)).toEqual(want);
    expect(canonical(await c.db.confirmed("tasks", id))).toBe(canonical(stateA));

    await Promise.all([syncA.stop(), syncB.stop(), syncC.stop()]);
    a.db.close();
    b.db.close();
    c.db.close();
  });

  test("a device that applied the empty snapshot of a new workspace, then missed change 1, gets it as a change", { timeout: 60_000 }, async () => {
    const email = `cursor0-${Date.now()}@example.com`;
    const password = "correct horse battery staple 42";
    const sessionA = await signUp(server.url, email, password);
    const sessionB = await signIn(server.url, email, password);
    const ws = sessionA.workspaces[0]!.id;
    const eventsA: string[] = [];
    const a = await openNodeDevice({ name: "cursor0-a" });
    const b = await openNodeDevice({ name: "cursor0-b" });
    const netA = new FakeNetwork();
    const syncA = client(a.db, sessionA, ws, netA, eventsA);
    syncA.start();
    await syncA.idle();
    // The new workspace is empty: A applied a snapshot at cursor 0.
    expect(eventsA.filter((e) => e.startsWith("page "))).toEqual([`page ${JSON.stringify({ workspaceId: ws, cursor: 0, snapshot: true, hasMore: false })}`]);
    expect(await a.db.cursor(ws)).toBe(0);
    netA.set(false);
    await until(() => !syncA.connected);

    // Change 1 commits while A is offline.
    const syncB = client(b.db, sessionB, ws, new FakeNetwork(), []);
    syncB.start();
    const created = await b.db.create("tasks", ws, { title: "Pagar el IBI", status: "todo" });
    if (!created.ok) throw new Error(JSON.stringify(created.issues));
    await syncB.idle();
    // B's own change comes back in a page that may follow the ack that made B idle.
    await until(async () => (await b.db.cursor(ws)) === 1);

    // A comes back with cursor 0 and receives change 1 as a change (not a second snapshot).
    eventsA.length = 0;
    netA.set(true);
    await until(async () => (await a.db.cursor(ws)) === 1);
    expect(eventsA.filter((e) => e.startsWith("page ")), eventsA.join("\n")).toEqual([
      `page ${JSON.stringify({ workspaceId: ws, cursor: 1, snapshot: false, hasMore: false })}`,
    ]);
    expect((await a.db.get("tasks", created.id))?.fields).toEqual({ title: "Pagar el IBI", status: "todo" });
    await Promise.all([syncA.stop(), syncB.stop()]);
    a.db.close();
    b.db.close();
  });

  test("a refused mutation is rejected alone, stays visible as rejected, and can be discarded", { timeout: 60_000 }, async () => {
    const session = await signUp(server.url, `reject-${Date.now()}@example.com`, "correct horse battery staple 42");
    const ws = session.workspaces[0]!.id;
    const notMine = "0a1b2c3d-0000-4000-8000-0000000000ff";
    const d = await openNodeDevice({ name: "reject-d" });
    const ok1 = await d.db.create("tasks", ws, { title: "Antes", status: "todo" });
    const refused = await d.db.create("tasks", notMine, { title: "Ajena", status: "todo" });
    const ok2 = await d.db.create("tasks", ws, { title: "Después", status: "todo" });
    if (!ok1.ok || !refused.ok || !ok2.ok) throw new Error("create failed");
    const sync = client(d.db, session, ws, new FakeNetwork(), []);
    sync.start();
    await sync.idle();

    expect(await d.db.pendingCount()).toBe(0);
    const [rejected] = await d.db.rejected();
    expect(rejected).toMatchObject({ recordId: refused.id, code: "not_found", op: "put" });
    expect(rejected!.issues[0]).toMatchObject({ key: "sync.reject.notMember" });
    expect(rejected!.issues[0]!.message.length).toBeGreaterThan(0);
    expect((await d.db.get("tasks", refused.id))?.rejected).toBe(1);
    // The rest of the push applied.
    await until(async () => (await d.db.get("tasks", ok2.id))?.pending === 0);
    expect((await d.db.list("tasks", ws)).map((t) => t.fields.title)).toEqual(["Antes", "Después"]);

    await d.db.discardRejected(rejected!.mutationId);
    expect(await d.db.get("tasks", refused.id)).toBeUndefined();
    await sync.stop();
    d.db.close();
  });

  test("a first sync of several pages resumes where it stopped after the connection drops", { timeout: 120_000 }, async () => {
    const email = `snapshot-${Date.now()}@example.com`;
    const password = "correct horse battery staple 42";
    const sessionA = await signUp(server.url, email, password);
    const sessionC = await signIn(server.url, email, password);
    const ws = sessionA.workspaces[0]!.id;
    const events: string[] = [];

    const a = await openNodeDevice({ name: "snap-a" });
    const syncA = client(a.db, sessionA, ws, new FakeNetwork(), events);
    syncA.start();
    await syncA.idle();
    const total = 1200;
    for (let done = 0; done < total; done += 400) {
      await a.db.batch(async () => {
        for (let i = done; i < done + 400; i++) await a.db.create("tasks", ws, { title: `Tarea ${i}`, status: "todo" });
      });
    }
    await syncA.idle();

    // Device C: record what it sends, and hold back its second pull (the server sends nothing
    // more); once the first page is applied, cut the connection.
    const sent: Record<string, unknown>[] = [];
    let heldBack = false;
    const socket = nodeSocket({ origin: server.url, cookie: sessionC.cookie });
    const netC = new FakeNetwork();
    const c = await openNodeDevice({ name: "snap-c" });
    const syncC = new SyncClient(c.db, {
      url: syncUrlOf(server.url),
      workspaces: () => [ws],
      socket: (url) => {
        const s = socket(url);
        const send = s.send.bind(s);
        s.send = (data: string) => {
          const msg = JSON.parse(data) as Record<string, unknown>;
          sent.push(msg);
          // The second pull may leave as soon as the first page arrives, before it is applied
          // (pull-ahead): cutting right then would drop that page unapplied.
          if (msg.type === "pull" && !heldBack && sent.filter((m) => m.type === "pull").length === 2) {
            heldBack = true;
            return;
          }
          send(data);
        };
        return s;
      },
      locks: new MemoryLockManager(),
      network: netC,
      backoff: { baseMs: 50, maxMs: 500 },
    });
    syncC.start();
    await until(async () => heldBack && (await c.db.list("tasks", ws)).length > 0);
    netC.set(false);
    await until(() => !syncC.connected);
    const partial = (await c.db.list("tasks", ws)).length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(total);
    expect(await c.db.cursor(ws)).toBe(0);

    netC.set(true);
    await syncC.idle();
    const hellos = sent.filter((m) => m.type === "hello");
    expect(hellos).toHaveLength(2);
    expect(hellos[1]!.resume).toEqual({ [ws]: expect.any(String) });
    expect((await c.db.list("tasks", ws)).length).toBe(total);
    expect(await c.db.cursor(ws)).toBe(await a.db.cursor(ws));
    await Promise.all([syncA.stop(), syncC.stop()]);
    a.db.close();
    c.db.close();
  });
});
