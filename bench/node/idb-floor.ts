// The devices' figures run on fake-indexeddb (bench/README.md, "Devices"); a browser stores in its own
// IndexedDB. This writes the same rows both ways, alternating, to say how the two compare: rows of
// the shape device B stores for a three-field task written once (the record state with a stamp and
// an author per field, `seen`, the row's keys) and, to tell the cost of a put from the cost of its
// bytes, rows of the keys alone; 500 puts per readwrite transaction, on one index like the device
// schema's [workspaceId+deleted]. In Chromium (Debian's, headless, a fresh in-memory context per
// run, warmed up by a first database of 500 rows) and in Node on fake-indexeddb, raw IndexedDB in
// both (no Dexie).
//
//   npx tsx bench/node/idb-floor.ts [rows=10000] [runs=3]
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { IDBFactory } from "fake-indexeddb";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../pwa/e2e/support/chromium";

const rows = Number(process.argv[2] ?? 10000);
const runs = Number(process.argv[3] ?? 3);

/** Writes `n` rows into a new database of `factory`, `perTx` per transaction; ms. Runs in the page
 * too (passed as its source): everything it needs is inside it. */
async function writeRows(factory: IDBFactory, n: number, perTx: number, keysOnly: boolean): Promise<number> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = factory.open(`floor-${Math.random()}`, 1);
    open.onupgradeneeded = () => open.result.createObjectStore("tasks", { keyPath: "id" }).createIndex("ws", ["workspaceId", "deleted"]);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const stamp = "2026-11-30T01:00:00.000Z-0000-3f2a9c1b5d7e9f01";
  const author = "0192f3a4-1b2c-7d3e-8f4a-5b6c7d8e9f00";
  const list: object[] = [];
  for (let i = 0; i < n; i++) {
    const keys = { id: `0192f3a4-1b2c-7d3e-8f4a-${String(i).padStart(12, "0")}`, workspaceId: author, deleted: 0 };
    list.push(
      keysOnly
        ? keys
        : {
            ...keys,
            state: {
              fields: { title: `Revisar la póliza del seguro ${i}`, status: "todo", priority: "medium" },
              clocks: { title: stamp, status: stamp, priority: stamp },
              authors: { title: author, status: author, priority: author },
              seen: { "3f2a9c1b5d7e9f01": stamp },
              conflicts: [],
            },
            local: [],
            epoch: 0,
            conflictCount: 0,
          },
    );
  }
  const t = performance.now();
  for (let i = 0; i < n; i += perTx) {
    await new Promise<void>((resolve, reject) => {
      const tx = db.transaction("tasks", "readwrite");
      const store = tx.objectStore("tasks");
      for (const row of list.slice(i, i + perTx)) store.put(row);
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
  }
  const ms = performance.now() - t;
  db.close();
  return ms;
}

const server = createServer((_, res) => res.end("<!doctype html><title>floor</title>")).listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
try {
  const source = writeRows.toString();
  const inBrowser = async (keysOnly: boolean): Promise<number> => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(url);
    const ms = await page.evaluate(
      async ([src, n, only]) => {
        // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the function above, as written
        const f = new Function(`return (${src as string})`)() as (factory: IDBFactory, n: number, perTx: number, keysOnly: boolean) => Promise<number>;
        // A first database of the page warms the browser's IndexedDB up (its backing store opens).
        await f(indexedDB, 500, 500, only as boolean);
        return f(indexedDB, n as number, 500, only as boolean);
      },
      [source, rows, keysOnly] as const,
    );
    await context.close();
    return ms;
  };
  const inNode = (keysOnly: boolean): Promise<number> => writeRows(new IDBFactory(), rows, 500, keysOnly);
  const per = (ms: number) => `${ms.toFixed(0)} ms (${((ms * 1000) / rows).toFixed(1)} µs a row)`;
  for (let run = 1; run <= runs; run++) {
    const [chrome, chromeKeys, fake, fakeKeys] = [await inBrowser(false), await inBrowser(true), await inNode(false), await inNode(true)];
    console.log(`run ${run}, ${rows} rows: Chromium ${per(chrome)}, keys only ${per(chromeKeys)}; fake-indexeddb ${per(fake)}, keys only ${per(fakeKeys)}; Chromium / fake ${(chrome / fake).toFixed(2)}`);
  }
} finally {
  await browser.close();
  server.close();
}
