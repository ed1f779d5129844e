// Sums up a V8 CPU profile (.cpuprofile, e.g. one of BENCH_NODE_PROF's): the functions with the
// most self time and the most total time (self plus everything they called), in ms and percent.
//
//   npx tsx bench/node/profile-top.ts FILE [N]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("usage: profile-top.ts FILE [N]");
const top = Number(topArg ?? 30);
const p = JSON.parse(readFileSync(file, "utf8")) as Profile;

const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Each sample's time is the delta to the next one.
const selfUs = new Map<number, number>();
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  const dt = p.timeDeltas[i + 1] ?? 0;
  selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + dt);
  total += dt;
}

// Files are named from the package (node_modules) or from the repository (the working directory).
const root = pathToFileURL(process.cwd()).href + "/";
const label = (n: Node): string => {
  const f = n.callFrame;
  const file = f.url.replace(/^.*\/node_modules\//, "").replace(root, "");
  const where = f.url ? `${file}:${f.lineNumber + 1}` : "";
  return `${f.functionName || "(anonymous)"} ${where}`.trim();
};

const self = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  self.set(label(n), (self.get(label(n)) ?? 0) + us);
  // Every distinct function on the stack gets the sample once (recursion counted once).
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const l = label(byId.get(cur)!);
    if (seen.has(l)) continue;
    seen.add(l);
    inclusive.set(l, (inclusive.get(l) ?? 0) + us);
  }
}

const print = (title: string, m: Map<string, number>): void => {
  console.log(`${title} (of ${(total / 1000).toFixed(0)} ms)`);
  for (const [l, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${l}`);
  }
};
print("self", self);
print("total", inclusive);
