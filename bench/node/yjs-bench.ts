// The in-memory peer baseline of issue 17: Yjs with its own WebSocket server (y-websocket 2's
// bin/server.cjs, in its own Node process, no persistence), on this machine in the same run as ours.
//
//   peer_yjs_10k        device A makes N records offline (one Yjs transaction), connects; the time
//                       until device B (connected, same room) holds all N. The records are the ones
//                       offline_10k writes: a task with title, status and priority, one Y.Map each.
//   peer_yjs_edit_p50   one field edit on A until B sees it, median over the edits (and _p99)
//
// Prints `RESULT {json}` for bench/cmd/syncbench. Environment: BENCH_OFFLINE_EDITS (N, default
// 10000), BENCH_YJS_EDITS (latency samples, default 300).
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { WebSocket } from "ws";
import { WebsocketProvider } from "y-websocket";
import * as Y from "yjs";

const records = Number(process.env.BENCH_OFFLINE_EDITS ?? 10000);
const edits = Number(process.env.BENCH_YJS_EDITS ?? 300);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

async function startServer(port: number) {
  const child = spawn(process.execPath, ["node_modules/y-websocket/bin/server.cjs"], {
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("running at")) resolve();
    });
    child.on("exit", (code) => reject(new Error(`the Yjs server exited (${code})`)));
  });
  return child;
}

function connect(port: number, doc: Y.Doc): WebsocketProvider {
  return new WebsocketProvider(`ws://127.0.0.1:${port}`, "bench", doc, {
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
    disableBc: true,
  });
}

async function synced(provider: WebsocketProvider): Promise<void> {
  if (provider.synced) return;
  await new Promise<void>((resolve) => provider.once("sync", (ok: boolean) => ok && resolve()));
}

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const port = await freePort();
const server = await startServer(port);
const result: Record<string, number> = {};
try {
  const a = new Y.Doc();
  const b = new Y.Doc();
  const providerB = connect(port, b);
  await synced(providerB);
  const tasksA = a.getMap<Y.Map<string>>("tasks");
  const tasksB = b.getMap<Y.Map<string>>("tasks");

  // A, offline: N records in one transaction.
  a.transact(() => {
    for (let i = 0; i < records; i++) {
      const task = new Y.Map<string>();
      task.set("title", `Revisar la póliza del seguro ${i}`);
      task.set("status", "todo");
      task.set("priority", "medium");
      tasksA.set(crypto.randomUUID(), task);
    }
  });
  const all = new Promise<void>((resolve) => {
    const check = () => {
      if (tasksB.size >= records) {
        tasksB.unobserve(check);
        resolve();
      }
    };
    tasksB.observe(check);
  });
  const start = performance.now();
  const providerA = connect(port, a);
  await all;
  result.peer_yjs_10k = (performance.now() - start) / 1000;
  console.error(`yjs: B had all ${records} records ${result.peer_yjs_10k.toFixed(2)} s after A connected`);
  await synced(providerA);

  // One field edit at a time, A → B.
  console.error(`yjs: ${edits} single edits A → B`);
  const ids = [...tasksA.keys()].slice(0, edits);
  const latencies: number[] = [];
  for (const [i, id] of ids.entries()) {
    const seen = new Promise<void>((resolve) => {
      const target = tasksB.get(id)!;
      const onChange = () => {
        target.unobserve(onChange);
        resolve();
      };
      target.observe(onChange);
    });
    const t0 = performance.now();
    tasksA.get(id)!.set("title", `Revisada ${i}`);
    // A hang guard (a lost edit would otherwise stall the benchmark), not a time limit.
    const stop = new AbortController();
    const guard = sleep(30_000, undefined, { signal: stop.signal }).then(() => {
      throw new Error(`yjs: edit ${i} not seen by B after 30 s`);
    });
    guard.catch(() => undefined);
    await Promise.race([seen, guard]);
    stop.abort();
    latencies.push(performance.now() - t0);
    await sleep(2);
  }
  console.error("yjs: edits done");
  latencies.sort((x, y) => x - y);
  result.peer_yjs_edit_p50 = percentile(latencies, 50);
  result.peer_yjs_edit_p99 = percentile(latencies, 99);
  providerA.destroy();
  providerB.destroy();
} finally {
  server.kill();
}
console.log(`RESULT ${JSON.stringify(result)}`);
// Closed sockets of y-websocket's providers can keep Node's loop alive a while: the figures are out.
process.exit(0);
