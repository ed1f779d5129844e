import { describe, expect, it } from "vitest";
import {
  ADD_MANUALLY_KINDS,
  ASSET_CATEGORIES_BY_CLASS,
  ASSET_CLASSES,
  assetRecordSchema,
  codePointLength,
  COLLECTIONS,
  CURRENCY_CODES,
  COUNTRY_CODES,
  DATE_PATTERN,
  depthOf,
  HLC_PATTERN,
  isValidIsin,
  participationValue,
  SHARE_PATTERN,
  toHundredths,
  validateWith,
} from "../src/index";
import derived from "../testdata/derived/participationValue.json";

describe("dates", () => {
  it("accept exactly the real calendar days of years 1000 to 2999", () => {
    const pad = (n: number, w: number) => String(n).padStart(w, "0");
    let checked = 0;
    for (let y = 1000; y <= 2999; y++) {
      for (let m = 1; m <= 12; m++) {
        for (let d = 1; d <= 31; d++) {
          const date = new Date(Date.UTC(2000, m - 1, d));
          date.setUTCFullYear(y);
          const real = date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
          const text = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
          if (DATE_PATTERN.test(text) !== real) throw new Error(`${text}: pattern says ${!real}`);
          checked++;
        }
      }
    }
    expect(checked).toBe(2000 * 12 * 31);
  });

  it.each(["0999-12-31", "3000-01-01", "2024-00-10", "2024-02-00", "2024-02-1", "+2024-02-10"])("refuse %s", (text) => {
    expect(DATE_PATTERN.test(text)).toBe(false);
  });
});

describe("ISIN check digit", () => {
  it.each(["US0378331005", "DE0007164600", "GB0002634946", "ES0000012K61", "NL0000235190"])("accepts %s", (isin) => {
    expect(isValidIsin(isin)).toBe(true);
  });
  it.each(["US0378331006", "DE0007164601", "GB0002634945", "US037833100", "US03783310055", "0S0378331005"])("refuses %s", (isin) => {
    expect(isValidIsin(isin)).toBe(false);
  });
  it("catches every single-digit typo in the check digit", () => {
    for (let d = 0; d <= 9; d++) expect(isValidIsin(`US037833100${d}`)).toBe(d === 5);
  });
});

describe("shares", () => {
  it.each([
    ["100", true],
    ["100.0", true],
    ["100.00", true],
    ["100.01", false],
    ["99.99", true],
    ["0.01", true],
    ["0.1", true],
    ["0.10", true],
    ["0", false],
    ["0.00", false],
    ["0.001", false],
    ["05", false],
    ["5.", false],
    [".5", false],
    ["-5", false],
    ["12,5", false],
  ])("%s is a share: %s", (text, ok) => {
    expect(SHARE_PATTERN.test(text)).toBe(ok);
  });

  it.each([
    ["12.5", 1250],
    ["0.01", 1],
    ["100", 10000],
    ["-0.25", -25],
    ["7.05", 705],
  ])("%s is %i hundredths", (text, n) => {
    expect(toHundredths(text)).toBe(n);
  });
});

describe("participation value", () => {
  it.each(derived.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(participationValue({ currentValue: c.currentValue, participation: c.participation })).toBe(c.want);
  });
  it("is absent without a current value", () => {
    expect(participationValue({ participation: "50" })).toBeUndefined();
  });
});

describe("text length", () => {
  it("counts code points, as JSON Schema and Go do", () => {
    expect(codePointLength("abc")).toBe(3);
    expect(codePointLength("ñandú")).toBe(5);
    expect(codePointLength("😀")).toBe(1);
    expect(codePointLength("👨‍👩‍👧")).toBe(5); // three people joined by two zero-width joiners
    expect(codePointLength("\ud800")).toBe(1); // a lone surrogate is one code point
  });
});

describe("document depth", () => {
  it("counts nested containers", () => {
    expect(depthOf("x")).toBe(0);
    expect(depthOf({})).toBe(1);
    expect(depthOf({ a: [{ b: [] }] })).toBe(4);
  });
  it("stops early on a very deep document", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(depthOf(deep)).toBeGreaterThan(10);
  });
});

describe("data", () => {
  it("ships ISO 4217 and ISO 3166-1 codes", () => {
    expect(CURRENCY_CODES).toContain("EUR");
    expect(CURRENCY_CODES).toContain("USD");
    expect(CURRENCY_CODES).not.toContain("XXX");
    expect(CURRENCY_CODES.length).toBeGreaterThan(150);
    expect(CURRENCY_CODES.every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(COUNTRY_CODES.every((c) => /^[A-Z]{2}$/.test(c))).toBe(true);
  });

  it("maps every add-manually kind onto a class and one of its categories", () => {
    expect(ADD_MANUALLY_KINDS).toHaveLength(13);
    for (const kind of ADD_MANUALLY_KINDS) {
      expect(ASSET_CLASSES).toContain(kind.assetClass);
      if (kind.category !== null) expect(ASSET_CATEGORIES_BY_CLASS[kind.assetClass] as readonly string[]).toContain(kind.category);
    }
  });

  it("gives every class a custom category and real estate the spec's list", () => {
    for (const c of ASSET_CLASSES) expect(ASSET_CATEGORIES_BY_CLASS[c] as readonly string[]).toContain("custom");
    expect(ASSET_CATEGORIES_BY_CLASS.real_estate).toEqual(["residential", "commercial", "industrial", "custom"]);
  });
});

describe("stored records (envelope inline)", () => {
  const id = "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f";
  const workspaceId = "3f2b8c1e-9d4a-4b6f-a2c7-5e8d9f0a1b2c";
  const stamp = "2025-03-01T10:15:30.123Z-0001-0123456789abcdef";
  const fields = { name: "Piso", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100" };
  const record = { id, workspaceId, clocks: { name: stamp, participation: stamp }, ...fields };

  it("accept the envelope with the fields", () => {
    expect(validateWith(assetRecordSchema, record)).toEqual({ ok: true, value: record });
    expect(validateWith(assetRecordSchema, { ...record, deleted: stamp, clocks: { deleted: stamp } }).ok).toBe(true);
    expect(validateWith(assetRecordSchema, { ...record, deleted: null }).ok).toBe(true);
  });

  it("apply the entity's cross-field rules", () => {
    expect(validateWith(assetRecordSchema, { ...record, participation: "90" })).toEqual({
      ok: false,
      issues: [{ path: "participation", key: "validation.percent.remaining", params: { remaining: 10 } }],
    });
  });

  it.each([
    ["a clock for a field the entity lacks", { clocks: { colour: stamp } }, "clocks.colour", "validation.unknownField"],
    ["a malformed clock", { clocks: { name: "yesterday" } }, "clocks.name", "validation.format.hlc"],
    ["an id that is not UUIDv7", { id: workspaceId }, "id", "validation.format.uuidv7"],
    ["a workspace id that is not a UUID", { workspaceId: "main" }, "workspaceId", "validation.format.uuid"],
    ["a malformed tombstone", { deleted: "yes" }, "deleted", "validation.format.hlc"],
  ])("refuse %s", (_name, patch, path, key) => {
    expect(validateWith(assetRecordSchema, { ...record, ...patch })).toEqual({ ok: false, issues: [{ path, key, params: {} }] });
  });

  it("exist for every collection, with its field list", () => {
    expect(Object.keys(COLLECTIONS)).toEqual([
      "assets",
      "legalStructures",
      "liabilities",
      "beneficiaries",
      "legacyInstructions",
      "valuations",
      "tasks",
      "cashFlows",
      "logins",
      "fxRates",
      "vaultKeys",
    ]);
    for (const c of Object.values(COLLECTIONS)) {
      expect(c.fields).not.toContain("id");
      expect(c.fields).not.toContain("workspaceId");
      expect(c.fields).not.toContain("clocks");
      expect(c.fields).not.toContain("deleted");
    }
  });
});

describe("HLC stamps", () => {
  it("follow the fixed format and compare as strings", () => {
    const a = "2025-03-01T10:15:30.123Z-0001-0123456789abcdef";
    const b = "2025-03-01T10:15:30.123Z-000A-0123456789abcdef";
    const c = "2025-03-01T10:15:30.124Z-0000-0000000000000000";
    for (const s of [a, b, c]) expect(HLC_PATTERN.test(s)).toBe(true);
    expect([c, b, a].sort()).toEqual([a, b, c]);
    expect(HLC_PATTERN.test("2025-03-01T10:15:30.123Z-000a-0123456789abcdef")).toBe(false);
    expect(HLC_PATTERN.test("2025-03-01T10:15:30.123Z-0001-0123456789ABCDEF")).toBe(false);
  });
});
