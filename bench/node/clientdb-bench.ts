// The clientdb figures of `make bench` (bench/README.md), against a running server that the Go
// bench (bench/cmd/syncbench) started:
//
//   offline_10k     device A makes N edits offline, reconnects; the time from A going online
//                   until device B has applied them all (B's cursor reaches them).
//   cold_sync_100k  a fresh device signs in to a workspace already holding M records and pulls
//                   it: the time from starting its sync client until it is idle (every snapshot
//                   page applied, caught up).
//
// Each device is its own Node process (device.ts). Input comes from the environment:
//   BENCH_BASE_URL                       the server (http://127.0.0.1:port)
//   BENCH_SERVER_PID                     its process id (for its CPU time; optional)
//   BENCH_NODE_PROF                      a directory: each device writes there a V8 CPU profile of
//                                        the measured interval (offline-A.cpuprofile, offline-B...,
//                                        cold.cpuprofile); bench/node/profile-top.ts sums one up
//   BENCH_TIMELINE                       any value: device A logs each frame it sends and receives
//                                        (type, length, time), printed after offline_10k with
//                                        both devices' page times; the cold device's pages too
//                                        (when each was received and applied)
//   BENCH_OFFLINE_EDITS                  N (0 skips offline_10k)
//   BENCH_COLD_EMAIL, BENCH_COLD_PASSWORD, BENCH_COLD_WORKSPACE, BENCH_COLD_RECORDS
//                                        the seeded account, its workspace and M (M=0 skips)
// The result is one line on stdout: `RESULT {json}`. Progress goes to stderr.
import { fork, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { signIn, signUp } from "@patrimonio/clientdb/node";
import type { Reply, Request } from "./device";

type Body<R> = R extends unknown ? Omit<R, "id"> : never;

class Device {
  readonly #child: ChildProcess;
  #next = 1;
  readonly #waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(readonly label: string) {
    this.#child = fork(path.join(import.meta.dirname, "device.ts"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    this.#child.on("message", (raw) => {
      const reply = raw as Reply;
      const w = this.#waiting.get(reply.id);
      if (!w) return;
      this.#waiting.delete(reply.id);
      if (reply.ok) w.resolve(reply.value);
      else w.reject(new Error(`device ${label}: ${reply.error}`));
    });
    this.#child.on("exit", (code) => {
      for (const w of this.#waiting.values()) w.reject(new Error(`device ${label} exited with ${String(code)}`));
      this.#waiting.clear();
    });
  }

  /** Sends a request and waits for its answer, at most 5 minutes (the bench stops by itself). */
  call<T>(req: Body<Request>): Promise<T> {
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(new Error(`device ${this.label}: no answer to ${req.cmd} within 5 minutes`));
      }, 300_000);
      const settle = <A extends unknown[]>(f: (...a: A) => void) => (...a: A) => {
        clearTimeout(timer);
        f(...a);
      };
      this.#waiting.set(id, { resolve: settle(resolve as (v: unknown) => void), reject: settle(reject) });
      this.#child.send({ ...req, id });
    });
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode !== null) return;
    const exited = new Promise((r) => this.#child.once("exit", r));
    await this.call({ cmd: "stop" }).catch(() => undefined);
    await exited;
  }
}

const env = (name: string, fallback?: string): string => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`${name} is not set`);
  return v;
};

const baseUrl = env("BENCH_BASE_URL");
const serverPid = Number(env("BENCH_SERVER_PID", "0"));

/** CPU seconds (user + system) of the server process so far, from /proc (0 when unknown). */
function serverCpu(): number {
  if (!serverPid) return 0;
  try {
    const stat = readFileSync(`/proc/${serverPid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 of the file: utime is field 14, stime 15; in clock ticks (100 Hz).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
const result: Record<string, number> = {};
const profDir = process.env.BENCH_NODE_PROF;

/** Starts (file absent) or stops and writes (file) the devices' profiles, when BENCH_NODE_PROF is set. */
async function profile(devices: Device[], name?: (d: Device) => string): Promise<void> {
  if (!profDir) return;
  if (name) mkdirSync(profDir, { recursive: true });
  await Promise.all(devices.map((d) => d.call({ cmd: "profile", file: name ? path.join(profDir, name(d)) : undefined })));
}

async function offline(edits: number): Promise<void> {
  const password = `bench password ${Math.random().toString(36).slice(2)}`;
  const email = `bench-offline-${Date.now()}@example.com`;
  const sa = await signUp(baseUrl, email, password);
  const sb = await signIn(baseUrl, email, password);
  const ws = sa.workspaces[0]!.id;
  const a = new Device("A");
  const b = new Device("B");
  try {
    await a.call({ cmd: "open", name: "a", baseUrl, cookie: sa.cookie, workspace: ws, online: true });
    await b.call({ cmd: "open", name: "b", baseUrl, cookie: sb.cookie, workspace: ws, online: true });
    await Promise.all([a.call({ cmd: "idle" }), b.call({ cmd: "idle" })]);
    await a.call({ cmd: "network", online: false });
    const writeMs = await a.call<number>({ cmd: "createTasks", n: edits, chunk: 1000 });
    console.error(`offline: A wrote ${edits} edits in ${(writeMs / 1000).toFixed(2)} s`);
    // The storage floor of A's part (store-floor.ts), on a copy of its rows, before it goes online.
    const floorA = await a.call<{ ms: number; outboxMs: number }>({ cmd: "storeFloor", side: "A" });
    const target = (await b.call<number>({ cmd: "cursor" })) + edits;
    const [cpuA0, cpuB0, cpuS0] = [await a.call<number>({ cmd: "cpu" }), await b.call<number>({ cmd: "cpu" }), serverCpu()];
    // B watches its cursor from now on (after each page applied; every 100 ms besides); nothing
    // can reach it before A is online.
    await profile([a, b]);
    await Promise.all([a.call({ cmd: "pageTimes" }), b.call({ cmd: "pageTimes" }), a.call({ cmd: "eventTimes" })]);
    const seen = b.call<number>({ cmd: "waitCursor", target, pollMs: 100 });
    const t0 = performance.now();
    const online = await a.call<number>({ cmd: "network", online: true });
    await seen;
    const elapsed = performance.now() - t0;
    await profile([a, b], (d) => `offline-${d.label}.cpuprofile`);
    const [cpuA1, cpuB1, cpuS1] = [await a.call<number>({ cmd: "cpu" }), await b.call<number>({ cmd: "cpu" }), serverCpu()];
    result.offline_cpu_a = (cpuA1 - cpuA0) / 1000;
    result.offline_cpu_b = (cpuB1 - cpuB0) / 1000;
    result.offline_cpu_server = cpuS1 - cpuS0;
    const got = await b.call<number>({ cmd: "count", collections: ["tasks"] });
    if (got !== edits) throw new Error(`offline: B has ${got} tasks, want ${edits}`);
    await a.call({ cmd: "idle" });
    // ... and of B's, on a copy of the rows it holds now.
    const floorB = await b.call<{ ms: number; compactMs: number; againMs: number; compacted: number }>({ cmd: "storeFloor", side: "B" });
    result.offline_store_floor_a = floorA.ms / 1000;
    result.offline_store_floor_b = floorB.ms / 1000;
    result.offline_store_floor_b_compact_ratio = floorB.compactMs / floorB.againMs;
    console.error(`offline: storage floor A ${floorA.ms.toFixed(0)} ms (outbox ${floorA.outboxMs.toFixed(0)} ms), B ${floorB.ms.toFixed(0)} ms`);
    console.error(
      `offline: B's rows in a compact state's shape (${floorB.compacted} of ${got} rows): ${floorB.compactMs.toFixed(0)} ms against ${floorB.againMs.toFixed(0)} ms as stored (lower of two each, alternated)`,
    );
    result.offline_seconds = elapsed / 1000;
    result.offline_write_seconds = writeMs / 1000;
    console.error(`offline: B had all ${edits} edits ${(elapsed / 1000).toFixed(2)} s after A went online`);
    // Where the interval went: A applies its own changes' pages (the echo) only once its pushes are
    // answered, so its first page marks about when the server had committed them all.
    const [pagesA, pagesB] = [await a.call<number[]>({ cmd: "pageTimes" }), await b.call<number[]>({ cmd: "pageTimes" })];
    const at = (t: number | undefined) => (t === undefined ? "-" : `${((t - online) / 1000).toFixed(3)} s`);
    if (process.env.BENCH_TIMELINE) {
      console.error(`offline: A's events: ${(await a.call<[string, number][]>({ cmd: "eventTimes" })).map(([e, t]) => `${e} ${at(t)}`).join(", ")}`);
      console.error(`offline: A's pages: ${pagesA.map((t) => at(t)).join(" ")}`);
      console.error(`offline: B's pages: ${pagesB.map((t) => at(t)).join(" ")}`);
    }
    console.error(
      `offline: after A went online: A's pages (its echo, after its pushes' answers) ${pagesA.length}, first ${at(pagesA[0])}, last ${at(pagesA.at(-1))}; ` +
        `B's pages ${pagesB.length}, first ${at(pagesB[0])}, last ${at(pagesB.at(-1))}`,
    );
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
}

/** BENCH_TIMELINE: when the cold device received each page and applied it, and how long it waited
 * with every received page applied (the wire behind the device). */
async function coldTimeline(c: Device, start: number): Promise<void> {
  const events = await c.call<[string, number][]>({ cmd: "eventTimes" });
  const pages = await c.call<number[]>({ cmd: "pageTimes" });
  const recv = events.filter(([e]) => e.startsWith("recv snapshot")).map(([, t]) => t);
  const ms = (t: number | undefined) => (t === undefined ? "-" : ((t - start) / 1000).toFixed(3));
  let waited = 0;
  for (let i = 1; i < pages.length && i < recv.length; i++) waited += Math.max(0, recv[i]! - pages[i - 1]!);
  const first = recv[0] === undefined ? 0 : recv[0] - start;
  console.error(
    `cold: ${recv.length} pages received, ${pages.length} applied; first received at ${ms(recv[0])} s, applied ${ms(pages[0])} s; ` +
      `waiting for a page with every received one applied: ${(waited / 1000).toFixed(3)} s after the first (and ${(first / 1000).toFixed(3)} s before it)`,
  );
  console.error(`cold: received ${recv.map(ms).join(" ")}`);
  console.error(`cold: applied ${pages.map(ms).join(" ")}`);
}

async function coldSync(records: number): Promise<void> {
  const s = await signIn(baseUrl, env("BENCH_COLD_EMAIL"), env("BENCH_COLD_PASSWORD"));
  const ws = env("BENCH_COLD_WORKSPACE");
  const c = new Device("C");
  try {
    await c.call({ cmd: "open", name: "c", baseUrl, cookie: s.cookie, workspace: ws, online: true });
    const cpuS0 = serverCpu();
    await profile([c]);
    const { ms, cpuMs, start } = await c.call<{ ms: number; cpuMs: number; start: number }>({ cmd: "coldSync" });
    await profile([c], () => "cold.cpuprofile");
    if (process.env.BENCH_TIMELINE) await coldTimeline(c, start);
    result.cold_sync_cpu_device = cpuMs / 1000;
    result.cold_sync_cpu_server = serverCpu() - cpuS0;
    const got = await c.call<number>({ cmd: "count", collections: ["tasks", "assets"] });
    if (got !== records) throw new Error(`cold sync: the device has ${got} records, want ${records}`);
    result.cold_sync_seconds = ms / 1000;
    console.error(`cold sync: ${records} records in ${(ms / 1000).toFixed(2)} s`);
  } finally {
    await c.stop();
  }
}

const edits = Number(env("BENCH_OFFLINE_EDITS", "0"));
const records = Number(env("BENCH_COLD_RECORDS", "0"));
if (edits > 0) await offline(edits);
if (records > 0) await coldSync(records);
process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
