// The device's calendar day, which every screen's "today" comes from.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, test } from "vitest";
import { localToday } from "./localToday";

const SRC = join(import.meta.dirname, "..");

describe("localToday", () => {
  test("is the device's calendar day, not UTC's", () => {
    // 00:30 local time on 1 March is still 28 February in UTC for a device east of Greenwich, and
    // 23:30 local on 28 February is already 1 March in UTC for one west of it: the local date wins.
    expect(localToday(new Date(2026, 2, 1, 0, 30))).toBe("2026-03-01");
    expect(localToday(new Date(2026, 1, 28, 23, 30))).toBe("2026-02-28");
    expect(localToday(new Date(2026, 11, 31, 12))).toBe("2026-12-31");
  });

  test("without an argument it is now's day", () => {
    const before = new Date();
    const got = localToday();
    const after = new Date();
    expect([localToday(before), localToday(after)]).toContain(got);
  });

  test("is the only copy: no other module of the app works out the local date itself", () => {
    // A date built from the device's calendar fields (getFullYear / getMonth() + 1 / getDate) is
    // "today" worked out again; it belongs here.
    const copies = readdirSync(SRC, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
      .filter((f) => /getMonth\(\)\s*\+\s*1/.test(readFileSync(join(SRC, f), "utf8")))
      .map((f) => relative(SRC, join(SRC, f)).replaceAll("\\", "/"));
    expect(copies).toEqual(["time/localToday.ts"]);
  });
});
