// A focused profile of the device's page application, without a server: a fresh clientdb device
// (fake-indexeddb) decodes and applies snapshot pages of tasks as the server sends them (500
// records, the JSON text of a real page), then changes pages of puts by another device.
//   npx tsx bench/node/apply-profile.ts [records=20000] [changes=10000]
// Add --cpu-prof (node --cpu-prof --import tsx ...) for a V8 profile. Prints ms per phase.
import { openNodeDevice } from "@patrimonio/clientdb/node";
import { formatStamp } from "../../clientdb/src/hlc";
import { applyPage, type ServerPage } from "../../clientdb/src/apply";
import { internals } from "../../clientdb/src/internal";
import { decodeIncoming } from "../../clientdb/src/wire";

const records = Number(process.argv[2] ?? 20000);
const changes = Number(process.argv[3] ?? 10000);
const ws = "0190a000-0000-7000-8000-000000000001";
const node = "a1b2c3d4e5f60718";
const author = "0190a000-0000-7000-8000-0000000000aa";
const stamp = (ms: number, counter: number) => formatStamp({ millis: 1_700_000_000_000 + ms, counter, node });
const id = (i: number) => `0190a000-0000-7000-8000-${i.toString(16).padStart(12, "0")}`;

const { db: handle } = await openNodeDevice({ name: "p" });
const dev = internals(handle);

let decodeMs = 0;
let t = performance.now();
let cpu = process.cpuUsage();
for (let i = 0; i < records; i += 500) {
  const recs = [];
  for (let j = i; j < Math.min(records, i + 500); j++) {
    const s = stamp(j, 0);
    recs.push({
      collection: "tasks",
      recordId: id(j),
      seq: j + 1,
      state: {
        fields: { title: `Revisar la póliza del seguro ${j}`, status: "todo", priority: "medium" },
        clocks: { title: s, status: s, priority: s },
        authors: { title: author, status: author, priority: author },
        seen: { [node]: s },
        conflicts: [],
      },
    });
  }
  const text = JSON.stringify({ type: "snapshot", workspaceId: ws, cursor: records, hasMore: i + 500 < records, pageToken: "t", records: recs });
  const d0 = performance.now();
  const page = decodeIncoming(text) as ServerPage;
  decodeMs += performance.now() - d0;
  await applyPage(dev, page);
}
console.log(`decode ${decodeMs.toFixed(0)} ms`);
const c1 = process.cpuUsage(cpu);
console.log(`snapshot ${records}: ${(performance.now() - t).toFixed(0)} ms wall, ${((c1.user + c1.system) / 1000).toFixed(0)} ms cpu`);

t = performance.now();
cpu = process.cpuUsage();
for (let i = 0; i < changes; i += 500) {
  const list = [];
  for (let j = i; j < Math.min(changes, i + 500); j++) {
    list.push({
      seq: records + j + 1,
      collection: "tasks",
      recordId: id(records + j),
      author,
      mutationId: j + 1,
      op: "put",
      stamp: stamp(records + j, 1),
      fields: { title: `Revisar la póliza del seguro ${j}`, status: "todo", priority: "medium" },
      base: {},
    });
  }
  const text = JSON.stringify({ type: "changes", workspaceId: ws, cursor: records + Math.min(changes, i + 500), hasMore: i + 500 < changes, changes: list });
  await applyPage(dev, decodeIncoming(text) as ServerPage);
}
const c2 = process.cpuUsage(cpu);
console.log(`changes ${changes}: ${(performance.now() - t).toFixed(0)} ms wall, ${((c2.user + c2.system) / 1000).toFixed(0)} ms cpu`);
handle.close();
