// One device for the clientdb benchmarks, in its own process (a device is its own machine: its
// JavaScript runs on its own thread). A clientdb database on fake-indexeddb and a SyncClient over
// a real socket to the server, driven by the coordinator (clientdb-bench.ts) through IPC:
// each request {id, cmd, ...} gets one answer {id, ok, value | error}.
import { SyncClient, MemoryLockManager, type NetworkLike, type SocketFactory } from "@patrimonio/clientdb";
import type { ClientDb } from "@patrimonio/clientdb";
import { nodeSocket, openNodeDevice, syncUrlOf } from "@patrimonio/clientdb/node";
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { storeFloorA, storeFloorB } from "./store-floor";

export type Request =
  | { id: number; cmd: "open"; name: string; baseUrl: string; cookie: string; workspace: string; online: boolean }
  | { id: number; cmd: "network"; online: boolean }
  | { id: number; cmd: "createTasks"; n: number; chunk: number }
  | { id: number; cmd: "idle" }
  | { id: number; cmd: "cursor" }
  | { id: number; cmd: "waitCursor"; target: number; pollMs: number }
  | { id: number; cmd: "coldSync" }
  | { id: number; cmd: "count"; collections: ("tasks" | "assets")[] }
  | { id: number; cmd: "cpu" }
  | { id: number; cmd: "storeFloor"; side: "A" | "B" }
  | { id: number; cmd: "profile"; file?: string }
  | { id: number; cmd: "pageTimes" }
  | { id: number; cmd: "eventTimes" }
  | { id: number; cmd: "stop" };

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** A switchable network, as the browser's online/offline events. */
class Network implements NetworkLike {
  #on: boolean;
  #subs = new Set<(online: boolean) => void>();
  constructor(on: boolean) {
    this.#on = on;
  }
  online = (): boolean => this.#on;
  subscribe(f: (online: boolean) => void): () => void {
    this.#subs.add(f);
    return () => this.#subs.delete(f);
  }
  set(on: boolean): void {
    this.#on = on;
    for (const f of this.#subs) f(on);
  }
}

let db: ClientDb | undefined;
/** A V8 CPU profile in progress (the `profile` request), of the measured interval only. */
let profiler: Session | undefined;
let client: SyncClient | undefined;
let network: Network | undefined;
let workspace = "";
const pageWaiters = new Set<() => void>();
/** When each page was applied and stored (the client's "page" event), in ms of wall time
 * (performance.timeOrigin + now: comparable across the bench's processes). */
const pageTimes: number[] = [];
const eventTimes: [string, number][] = [];

/** The socket factory, logging each frame's type, length and time into eventTimes
 * (BENCH_TIMELINE=1; only a frame's first characters are read). */
function traced(factory: SocketFactory): SocketFactory {
  const typeOf = (head: string) => /"type":"(\w+)"/.exec(head)?.[1] ?? "?";
  return (url) => {
    const socket = factory(url);
    const send = socket.send.bind(socket);
    socket.send = (data: string) => {
      eventTimes.push([`send ${typeOf(data.slice(0, 40))} ${data.length}`, performance.timeOrigin + performance.now()]);
      send(data);
    };
    (socket as unknown as { addEventListener(t: string, f: (ev: { data: unknown }) => void): void }).addEventListener("message", (ev) => {
      const data = ev.data as string | Buffer;
      const head = typeof data === "string" ? data.slice(0, 40) : data.subarray(0, 40).toString();
      eventTimes.push([`recv ${typeOf(head)} ${data.length}`, performance.timeOrigin + performance.now()]);
    });
    return socket;
  };
}

/** CPU time (user + system) of this process, in ms. */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

function need<T>(v: T | undefined, what: string): T {
  if (v === undefined) throw new Error(`${what}: open the device first`);
  return v;
}

async function handle(req: Request): Promise<unknown> {
  switch (req.cmd) {
    case "open": {
      ({ db } = await openNodeDevice({ name: req.name }));
      workspace = req.workspace;
      network = new Network(req.online);
      const socket = nodeSocket({ origin: req.baseUrl, cookie: req.cookie });
      client = new SyncClient(db, {
        url: syncUrlOf(req.baseUrl),
        workspaces: () => [workspace],
        socket: process.env.BENCH_TIMELINE ? traced(socket) : socket,
        locks: new MemoryLockManager(),
        network,
        pingIntervalMs: 0,
        // Each applied page wakes waitCursor (the stored cursor is read then, not polled).
        onEvent: (e) => {
          if (e.type !== "page") {
            eventTimes.push([e.type, performance.timeOrigin + performance.now()]);
            return;
          }
          pageTimes.push(performance.timeOrigin + performance.now());
          for (const w of pageWaiters) w();
        },
      });
      return null;
    }
    case "network":
      need(network, "network").set(req.online);
      return performance.timeOrigin + performance.now();
    case "createTasks": {
      // Edits made offline, as a person would make them, in chunks of `chunk` per transaction
      // (db.batch: the bulk path of the command API).
      const d = need(db, "createTasks");
      const t = performance.now();
      for (let done = 0; done < req.n; done += req.chunk) {
        await d.batch(async () => {
          for (let i = done; i < Math.min(req.n, done + req.chunk); i++) {
            const r = await d.create("tasks", workspace, { title: `Revisar la póliza del seguro ${i}`, status: "todo", priority: "medium" });
            if (!r.ok) throw new Error(`create refused: ${JSON.stringify(r.issues)}`);
          }
        });
      }
      return performance.now() - t;
    }
    case "idle":
      need(client, "idle").start();
      await client!.idle();
      return null;
    case "cursor":
      return await need(db, "cursor").cursor(workspace);
    case "waitCursor": {
      // The stored cursor is read after every page the client applies (its "page" event), and
      // every pollMs besides (a safety net): polling alone every few ms cost this device a
      // read transaction each time, measured as its CPU.
      const d = need(db, "waitCursor");
      const giveUp = performance.now() + 120_000;
      while ((await d.cursor(workspace)) < req.target) {
        if (performance.now() > giveUp) throw new Error(`the cursor stayed at ${await d.cursor(workspace)} for 2 minutes, below ${req.target}`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            pageWaiters.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, req.pollMs);
          pageWaiters.add(wake);
        });
      }
      return await d.cursor(workspace);
    }
    case "coldSync": {
      // A fresh device: from starting the client (connect, hello, every snapshot page applied)
      // to idle (caught up, nothing to push).
      const c = need(client, "coldSync");
      const cpu = cpuMs();
      const t = performance.now();
      c.start();
      await c.idle();
      return { ms: performance.now() - t, cpuMs: cpuMs() - cpu, start: performance.timeOrigin + t };
    }
    case "cpu":
      return cpuMs();
    case "pageTimes":
      return pageTimes.splice(0);
    case "eventTimes":
      return eventTimes.splice(0);
    case "profile": {
      // Without a file: start a V8 CPU profile; with one: stop it and write it there (a
      // .cpuprofile, for Chrome's DevTools or bench/node/profile-top.ts).
      if (req.file === undefined) {
        profiler = new Session();
        profiler.connect();
        await profiler.post("Profiler.enable");
        await profiler.post("Profiler.setSamplingInterval", { interval: 100 });
        await profiler.post("Profiler.start");
        return null;
      }
      const s = need(profiler, "profile (not started)");
      const { profile } = await s.post("Profiler.stop");
      s.disconnect();
      profiler = undefined;
      writeFileSync(req.file, JSON.stringify(profile));
      return null;
    }
    case "storeFloor": {
      // The storage floor (store-floor.ts), on a copy of this device's rows.
      const d = need(db, "storeFloor");
      return req.side === "A" ? await storeFloorA(d) : await storeFloorB(d);
    }
    case "count": {
      const d = need(db, "count");
      let n = 0;
      for (const collection of req.collections) n += (await d.list(collection, workspace)).length;
      return n;
    }
    case "stop":
      await client?.stop();
      db?.close();
      setImmediate(() => process.exit(0));
      return null;
  }
}

// The coordinator is gone (it ended or was killed): so is this device.
process.on("disconnect", () => process.exit(1));

process.on("message", (raw) => {
  const req = raw as Request;
  handle(req).then(
    (value) => process.send!({ id: req.id, ok: true, value } satisfies Reply),
    (err: unknown) => process.send!({ id: req.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) } satisfies Reply),
  );
});
