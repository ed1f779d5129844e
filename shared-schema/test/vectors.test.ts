// Runs every shared vector in testdata/ through the TypeScript validators. The Go tests
// (vectors_test.go) run the same files and must reach the same verdict, path, key and params.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ENTITY_SCHEMAS, messageTemplate, validate, type EntityName } from "../src/index";

interface Vector {
  name: string;
  entity: EntityName;
  input: unknown;
  valid: boolean;
  path?: string;
  key?: string;
  params?: Record<string, string | number>;
}

/** JSON with sorted keys: equal strings mean equal values, text included, byte for byte. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const dir = new URL("../testdata/", import.meta.url);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();
const vectors = new Map<string, Vector[]>(files.map((f) => [f, JSON.parse(readFileSync(new URL(f, dir), "utf8")) as Vector[]]));

describe.each([...vectors.entries()])("vectors in %s", (file, cases) => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    expect(`${c.entity}.json`).toBe(file);
    const result = validate(c.entity, c.input);
    if (c.valid) {
      expect(result).toEqual({ ok: true, value: c.input });
      // Text comes back byte for byte: nothing trimmed, normalised or escaped.
      expect(canonical(result.ok && result.value)).toBe(canonical(c.input));
    } else {
      expect(result).toEqual({ ok: false, issues: [{ path: c.path, key: c.key, params: c.params }] });
    }
  });
});

describe("the vector set", () => {
  it("has a file for every entity", () => {
    expect(files.map((f) => f.replace(/\.json$/, "")).sort()).toEqual(Object.keys(ENTITY_SCHEMAS).sort());
  });

  it.each([...vectors.entries()])("%s has valid cases and invalid ones for unknown fields and wrong types", (_file, cases) => {
    expect(cases.some((c) => c.valid)).toBe(true);
    expect(cases.some((c) => c.key === "validation.unknownField")).toBe(true);
    expect(cases.some((c) => c.key?.startsWith("validation.type."))).toBe(true);
    expect(cases.some((c) => c.key === "validation.enum" || c.key?.startsWith("validation.format."))).toBe(true);
  });

  it("only expects message keys that exist in both languages", () => {
    const keys = new Set([...vectors.values()].flat().flatMap((c) => (c.key ? [c.key] : [])));
    for (const key of keys) {
      expect(messageTemplate("es", key), key).toBeTypeOf("string");
      expect(messageTemplate("en", key), key).toBeTypeOf("string");
    }
  });

  it("has names unique within each file", () => {
    for (const cases of vectors.values()) expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });
});
