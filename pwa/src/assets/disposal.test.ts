import { describe, expect, test } from "vitest";
import { linkableAssets, namedAsset, splitDisposed } from "./disposal";
import { createI18n } from "../i18n/i18n";
import { formatDate } from "../i18n/format";

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

  test("a record naming a disposed asset says how and when it left, in the reader's language", () => {
    for (const [lng, sold, gifted] of [
      ["es", "Piso en Vigo (Vendido el 28 nov 2026)", "Cuadro (Regalado o donado el 1 mar 2025)"],
      ["en", "Piso en Vigo (Sold on 28 Nov 2026)", "Cuadro (Given away on 1 Mar 2025)"],
    ] as const) {
      const i18n = createI18n({ lng });
      const t = (k: string, o?: Record<string, unknown>) => String(i18n.t(k as never, o as never));
      const date = (iso: string) => formatDate(iso, lng);
      expect(namedAsset({ name: "Piso en Vigo" }, t, date)).toBe("Piso en Vigo");
      expect(namedAsset({ name: "Piso en Vigo", disposal: { kind: "sold", date: "2026-11-28", amount: "320000" } }, t, date)).toBe(sold);
      expect(namedAsset({ name: "Cuadro", disposal: { kind: "gifted", date: "2025-03-01" } }, t, date)).toBe(gifted);
    }
  });
});
