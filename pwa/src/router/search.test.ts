import { describe, expect, it } from "vitest";
import { bool, flag, idList, one, oneOf, positiveInt, recordId, searchSchema, text, textList } from "./search";

const ID = "0192f1d2-3b4c-7d5e-8f60-718293a4b5c6";

describe("route search readers", () => {
  it("keeps the acceptable parameters and drops the rest, never throwing", () => {
    const schema = searchSchema({ tab: oneOf("a", "b"), n: positiveInt, q: text({ max: 5, coerce: true }) });
    expect(schema.parse({ tab: "b", n: "12", q: 123, other: "x" })).toEqual({ tab: "b", n: 12, q: "123" });
    expect(schema.parse({ tab: "c", n: -1, q: "too long" })).toEqual({});
    expect(Object.keys(schema.parse({ tab: "z" }))).toEqual([]);
  });

  it("reads numbers the way the router or a person writes them", () => {
    expect([12, "12", "0", 0, -3, 1.5, "", " ", "x", true, null].map((v) => positiveInt(v))).toEqual([
      12, 12, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined,
    ]);
    expect([1, "1", 2, "yes"].map((v) => one(v))).toEqual([1, 1, undefined, undefined]);
    expect([true, false, "true"].map((v) => bool(v))).toEqual([true, false, undefined]);
    expect([true, 1, "1", "true", "0", false].map((v) => flag(v))).toEqual([1, 1, 1, 1, undefined, undefined]);
  });

  it("reads texts with their limits and patterns", () => {
    expect(text({ pattern: /^[A-Z]{2}$/ })("ES")).toBe("ES");
    expect(text({ pattern: /^[A-Z]{2}$/ })("es")).toBeUndefined();
    expect(text()(42)).toBeUndefined();
    expect(text({ coerce: true })(42)).toBe("42");
    expect(recordId(ID)).toBe(ID);
    expect(recordId(ID.toUpperCase())).toBeUndefined();
    expect(recordId("not-an-id")).toBeUndefined();
  });

  it("reads lists from a comma-separated text or the router's JSON array", () => {
    expect(textList({ max: 2, itemMax: 8 })("province,city")).toEqual(["province", "city"]);
    expect(textList({ max: 2, itemMax: 8 })(["a", "b", "c"])).toBeUndefined();
    expect(textList({ max: 2, itemMax: 3 })(["long"])).toBeUndefined();
    expect(idList("3,1,x,3,-2")).toEqual([1, 3]);
    expect(idList([2, "1"])).toEqual([1, 2]);
    expect(idList(7)).toEqual([7]);
    expect(idList(undefined)).toBeUndefined();
    expect(idList(Array.from({ length: 1001 }, (_, i) => i + 1))).toBeUndefined();
  });
});
