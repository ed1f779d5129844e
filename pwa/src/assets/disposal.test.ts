import { describe, expect, test } from "vitest";
import { linkableAssets, splitDisposed } from "./disposal";

const asset = (id: string, sold = false) => ({ id, fields: sold ? { disposal: { kind: "sold" as const, date: "2025-06-01", amount: "1000" } } : {} });

describe("disposed assets", () => {
  const assets = [asset("held"), asset("sold", true), asset("linked", true)];

  test("a form offers the held assets and the disposed one the record already links to", () => {
    expect(linkableAssets(assets).map((a) => a.id)).toEqual(["held"]);
    expect(linkableAssets(assets, "linked").map((a) => a.id)).toEqual(["held", "linked"]);
    expect(linkableAssets(assets, undefined, "sold").map((a) => a.id)).toEqual(["held", "sold"]);
  });

  test("lists split into held and disposed, each in order", () => {
    expect(splitDisposed(assets)).toEqual({ held: [assets[0]], disposed: [assets[1], assets[2]] });
  });
});
