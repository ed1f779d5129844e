import { describe, expect, test } from "vitest";
import en from "./locales/en.json";
import es from "./locales/es.json";

/** Every leaf of a nested translation object, as "a.b.c" → value. */
function leaves(node: unknown, prefix = ""): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (node !== null && typeof node === "object" && !Array.isArray(node)) {
    for (const [key, value] of Object.entries(node)) {
      for (const [path, leaf] of leaves(value, prefix ? `${prefix}.${key}` : key)) out.set(path, leaf);
    }
  } else {
    out.set(prefix, node);
  }
  return out;
}

function keyDifferences(a: unknown, b: unknown): { onlyInFirst: string[]; onlyInSecond: string[] } {
  const ka = new Set(leaves(a).keys());
  const kb = new Set(leaves(b).keys());
  return {
    onlyInFirst: [...ka].filter((k) => !kb.has(k)).sort(),
    onlyInSecond: [...kb].filter((k) => !ka.has(k)).sort(),
  };
}

function blankKeys(file: unknown): string[] {
  return [...leaves(file)]
    .filter(([, value]) => typeof value !== "string" || value.trim() === "")
    .map(([key]) => key)
    .sort();
}

describe("the translation files", () => {
  test("es.json and en.json have exactly the same keys", () => {
    const { onlyInFirst, onlyInSecond } = keyDifferences(es, en);
    expect({ missingFromEn: onlyInFirst, missingFromEs: onlyInSecond }).toEqual({ missingFromEn: [], missingFromEs: [] });
  });

  test.each([
    ["es", es],
    ["en", en],
  ])("%s.json has no empty or non-text value", (_name, file) => {
    expect(blankKeys(file)).toEqual([]);
  });

  test("Spanish texts are really translated, not copies of the English base", () => {
    // Brand names and language endonyms are the same in both languages; everything else differs.
    // Words spelt the same in both languages ("No", "Animal") and the dash of an empty value.
    const sameOnPurpose = new Set(["app.name", "language.es", "language.en", "assetDetail.value.empty", "assetDetail.value.no", "assetDetail.fields.animal"]);
    const enLeaves = leaves(en);
    const untranslated = [...leaves(es)]
      .filter(([key, value]) => !sameOnPurpose.has(key) && enLeaves.get(key) === value)
      .map(([key]) => key);
    expect(untranslated).toEqual([]);
  });
});

describe("the parity check itself", () => {
  test("reports keys present in only one file, nested ones by their full path", () => {
    const a = { nav: { title: "x", extra: "y" }, top: "z" };
    const b = { nav: { title: "x" }, top: "z", more: { deep: "w" } };
    expect(keyDifferences(a, b)).toEqual({ onlyInFirst: ["nav.extra"], onlyInSecond: ["more.deep"] });
  });

  test("treats a text in one file and an object in the other as different keys", () => {
    expect(keyDifferences({ a: "text" }, { a: { b: "text" } })).toEqual({ onlyInFirst: ["a"], onlyInSecond: ["a.b"] });
  });

  test("finds empty, blank and non-text values", () => {
    expect(blankKeys({ a: "", b: { c: "  " }, d: "ok", e: 3, f: null })).toEqual(["a", "b.c", "e", "f"]);
  });
});
