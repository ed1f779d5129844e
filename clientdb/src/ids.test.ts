import { describe, expect, test } from "vitest";
import { uuidv7 } from "./ids";

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidv7", () => {
  test("ids made in the same millisecond sort in the order they were made", () => {
    const ids = Array.from({ length: 1000 }, () => uuidv7(1_700_000_000_000));
    for (const id of ids) expect(id).toMatch(V7);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test("a clock that steps back does not make an id sort before the last one", () => {
    const a = uuidv7(1_800_000_000_000);
    const b = uuidv7(1_799_999_999_000);
    expect(b > a).toBe(true);
    expect(b.slice(0, 13)).toBe(a.slice(0, 13));
  });

  test("a later millisecond starts a fresh random tail with its own timestamp", () => {
    const id = uuidv7(1_900_000_000_123);
    const ms = parseInt(id.replace(/-/g, "").slice(0, 12), 16);
    expect(ms).toBe(1_900_000_000_123);
  });
});
