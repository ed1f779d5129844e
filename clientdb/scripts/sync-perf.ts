// Rough timings of the device side against the real server (not a test, not the benchmark suite):
// N offline edits on device A pushed on reconnect until device B has them all, and a cold sync
// of the resulting workspace into a fresh device C. Shows the bench engineer how to drive
// devices from Node.
//
//   npx tsx clientdb/scripts/sync-perf.ts [edits=10000] [extraRecords=0]
//
// extraRecords: records created (online, in batches) before the measurement so that the cold
// sync pulls edits + extraRecords records.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SyncClient, type NetworkLike } from "../src/client";
import type { ClientDb } from "../src/clientdb";
import { MemoryLockManager } from "../src/leader";
import { nodeSocket, openNodeDevice, signIn, signUp, syncUrlOf, type Session } from "../src/node";
import { buildServer, startServer } from "../test/realServer";

const edits = Number(process.argv[2] ?? 10_000);
const extra = Number(process.argv[3] ?? 0);

class Network implements NetworkLike {
  #on = true;
  #subs = new Set<(online: boolean) => void>();
  online = () => this.#on;
  subscribe(f: (online: boolean) => void) {
    this.#subs.add(f);
    return () => this.#subs.delete(f);
  }
  set(on: boolean) {
    this.#on = on;
    for (const f of this.#subs) f(on);
  }
}

const dir = mkdtempSync(path.join(tmpdir(), "patrimonio-perf-"));
const server = await startServer(buildServer(dir));
try {
  const email = `perf-${Date.now()}@example.com`;
  const password = "correct horse battery staple 42";
  const sa = await signUp(server.url, email, password);
  const sb = await signIn(server.url, email, password);
  const sc = await signIn(server.url, email, password);
  const ws = sa.workspaces[0]!.id;
  const client = (db: ClientDb, s: Session, network: NetworkLike) =>
    new SyncClient(db, {
      url: syncUrlOf(server.url),
      workspaces: () => [ws],
      socket: nodeSocket({ origin: server.url, cookie: s.cookie }),
      locks: new MemoryLockManager(),
      network,
      pingIntervalMs: 0,
    });

  const a = await openNodeDevice({ name: "a" });
  const b = await openNodeDevice({ name: "b" });
  const netA = new Network();
  const syncA = client(a.db, sa, netA);
  const syncB = client(b.db, sb, new Network());
  syncA.start();
  syncB.start();
  await Promise.all([syncA.idle(), syncB.idle()]);

  if (extra > 0) {
    let t = performance.now();
    for (let done = 0; done < extra; done += 1000) {
      await a.db.batch(async () => {
        for (let i = done; i < Math.min(extra, done + 1000); i++) await a.db.create("tasks", ws, { title: `Extra ${i}`, status: "todo" });
      });
    }
    await syncA.idle();
    console.warn(`extra: ${extra} creates pushed in ${((performance.now() - t) / 1000).toFixed(2)} s`);
    t = performance.now();
  }

  netA.set(false);
  let t = performance.now();
  const per = 1000;
  for (let done = 0; done < edits; done += per) {
    await a.db.batch(async () => {
      for (let i = done; i < Math.min(edits, done + per); i++) await a.db.create("tasks", ws, { title: `Offline ${i}`, status: "todo" });
    });
  }
  console.warn(`offline: ${edits} creates written in ${((performance.now() - t) / 1000).toFixed(2)} s`);
  const target = (await b.db.cursor(ws)) + edits;

  t = performance.now();
  netA.set(true);
  while ((await b.db.cursor(ws)) < target) await new Promise((r) => setTimeout(r, 5));
  console.warn(`offline_${edits}: B has them all ${((performance.now() - t) / 1000).toFixed(2)} s after A reconnected`);
  await syncA.idle();
  console.warn(`  A idle (outbox empty, echoes applied) after ${((performance.now() - t) / 1000).toFixed(2)} s`);

  const c = await openNodeDevice({ name: "c" });
  const syncC = client(c.db, sc, new Network());
  t = performance.now();
  syncC.start();
  await syncC.idle();
  const n = (await c.db.list("tasks", ws)).length;
  console.warn(`cold sync: ${n} records in ${((performance.now() - t) / 1000).toFixed(2)} s`);
  await Promise.all([syncA.stop(), syncB.stop(), syncC.stop()]);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
