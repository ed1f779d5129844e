import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  Clock,
  MAX_COUNTER,
  StampError,
  compareStampParts,
  compareStamps,
  formatStamp,
  isStamp,
  newNodeId,
  parseStamp,
  validNode,
} from "./hlc";

/** Seed of the property tests: SYNC_SEED replays a run; otherwise a new one, shown in the test name. */
const testSeed = Number(process.env.SYNC_SEED) || Date.now() % 2 ** 32;

/** A small seeded PRNG (mulberry32), so that a failing run can be replayed from its seed. */
function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { int: (n: number) => Math.floor(next() * n) };
}

// The same vectors as sync/clock_vectors_test.go: both languages must agree on every one.
interface ClockVectors {
  compare: { name: string; a: string; b: string; want: -1 | 0 | 1 }[];
  parse: { name: string; input: string; millis: number; counter: number; node: string }[];
  invalid: { name: string; input: string }[];
  format: { name: string; millis: number; counter: number; node: string; want: string }[];
  sequences: {
    name: string;
    node: string;
    maxDriftMs: number;
    last?: string;
    steps: { wall: string; op: "now" | "observe" | "bound"; remote?: string; want: string; restamped?: boolean }[];
  }[];
}

const vectors = JSON.parse(
  readFileSync(new URL("../../sync/testdata/clock_vectors.json", import.meta.url), "utf8"),
) as ClockVectors;

describe("clock vectors", () => {
  test("every section has cases", () => {
    for (const section of [vectors.compare, vectors.parse, vectors.invalid, vectors.format, vectors.sequences]) {
      expect(section.length).toBeGreaterThan(0);
    }
  });

  test.each(vectors.compare)("compare: $name", ({ a, b, want }) => {
    expect(compareStamps(a, b)).toBe(want);
    expect(compareStamps(b, a)).toBe(-want || 0);
    expect(compareStampParts(parseStamp(a), parseStamp(b))).toBe(want);
  });

  test.each(vectors.parse)("parse: $name", ({ input, millis, counter, node }) => {
    expect(parseStamp(input)).toEqual({ millis, counter, node });
    expect(formatStamp(parseStamp(input))).toBe(input);
    expect(isStamp(input)).toBe(true);
  });

  test.each(vectors.invalid)("reject: $name", ({ input }) => {
    expect(() => parseStamp(input)).toThrow(StampError);
    expect(isStamp(input)).toBe(false);
  });

  test.each(vectors.format)("format: $name", ({ millis, counter, node, want }) => {
    expect(formatStamp({ millis, counter, node })).toBe(want);
    expect(parseStamp(want)).toEqual({ millis, counter, node });
  });

  test.each(vectors.sequences)("clock: $name", (seq) => {
    let wall = 0;
    const clock = new Clock({ node: seq.node, now: () => wall, maxDriftMs: seq.maxDriftMs, ...(seq.last ? { last: seq.last } : {}) });
    seq.steps.forEach((step, i) => {
      wall = Date.parse(step.wall);
      expect(Number.isFinite(wall), `step ${i}: wall ${step.wall}`).toBe(true);
      let got: string;
      let restamped = false;
      if (step.op === "now") got = clock.now();
      else if (step.op === "observe") got = clock.observe(step.remote as string);
      else ({ stamp: got, restamped } = clock.bound(step.remote as string));
      expect({ step: i, got, restamped }).toEqual({ step: i, got: step.want, restamped: step.restamped ?? false });
    });
  });
});

describe("clock construction", () => {
  const now = () => 0;
  test.each([
    ["a node id with uppercase letters is rejected", { node: "ABCDEFABCDEFABCD", now }],
    ["a node id that is too short is rejected", { node: "abc", now }],
    ["a negative maximum drift is rejected", { node: "0123456789abcdef", now, maxDriftMs: -1 }],
    ["a fractional maximum drift is rejected", { node: "0123456789abcdef", now, maxDriftMs: 0.5 }],
    ["a malformed last stamp is rejected", { node: "0123456789abcdef", now, last: "yesterday" }],
  ])("%s", (_name, options) => {
    expect(() => new Clock(options)).toThrow(StampError);
  });

  test("formatting parts out of range is refused", () => {
    expect(() => formatStamp({ millis: -1, counter: 0, node: "0123456789abcdef" })).toThrow(StampError);
    expect(() => formatStamp({ millis: 0, counter: MAX_COUNTER + 1, node: "0123456789abcdef" })).toThrow(StampError);
    expect(() => formatStamp({ millis: 0.5, counter: 0, node: "0123456789abcdef" })).toThrow(StampError);
  });

  test("new node ids are valid and random", () => {
    const a = newNodeId();
    const b = newNodeId();
    expect(validNode(a)).toBe(true);
    expect(validNode(b)).toBe(true);
    expect(a).not.toBe(b);
  });

  test("a clock resumes after its persisted last stamp", () => {
    let wall = Date.parse("2025-03-01T10:00:00.000Z");
    const first = new Clock({ node: "0123456789abcdef", now: () => wall });
    let last = "";
    for (let i = 0; i < 5; i++) last = first.now();
    expect(first.last()).toBe(last);
    wall -= 3600_000;
    const second = new Clock({ node: "0123456789abcdef", now: () => wall, last: first.last() });
    expect(compareStamps(second.now(), last)).toBe(1);
  });
});

describe(`clock properties (seed ${testSeed})`, () => {
  // The same checks as Go's TestClockIsMonotonicUnderRandomWallClocks. Replay: SYNC_SEED=<seed>.
  test("stamps only go forward under random wall clocks and remote stamps", () => {
    const rng = seededRandom(testSeed);
    for (let run = 0; run < 100; run++) {
      let wall = Date.parse("2025-03-01T10:00:00.000Z");
      const drift = run % 2 === 1 ? 300_000 : 0;
      const clock = new Clock({ node: "0123456789abcdef", now: () => wall, maxDriftMs: drift });
      let prev = clock.last();
      for (let step = 0; step < 1000; step++) {
        const r = rng.int(10);
        if (r === 0) wall -= rng.int(10_000);
        else if (r <= 3) wall += rng.int(5);
        const remote = formatStamp({ millis: wall + rng.int(4_000_000) - 2_000_000, counter: rng.int(MAX_COUNTER + 1), node: "fedcba9876543210" });
        const where = `seed ${testSeed} run ${run} step ${step} (replay: SYNC_SEED=${testSeed})`;
        let got: string;
        switch (rng.int(3)) {
          case 0:
            got = clock.now();
            break;
          case 1: {
            got = clock.observe(remote);
            const trusted = drift === 0 || parseStamp(remote).millis <= wall + drift;
            if (trusted && compareStamps(got, remote) !== 1) expect.fail(`${where}: observe(${remote}) = ${got}`);
            break;
          }
          default: {
            const b = clock.bound(remote);
            if (b.restamped) {
              if (!(drift > 0 && parseStamp(remote).millis > wall + drift)) expect.fail(`${where}: re-stamped ${remote}`);
              got = b.stamp;
            } else {
              if (b.stamp !== remote) expect.fail(`${where}: bound(${remote}) = ${b.stamp} without re-stamping`);
              got = clock.last();
              if (compareStamps(got, remote) !== 1) expect.fail(`${where}: after bound(${remote}) the clock is at ${got}`);
            }
          }
        }
        if (compareStamps(got, prev) !== 1) expect.fail(`${where}: ${got} is not after ${prev}`);
        prev = got;
      }
    }
  });
});
