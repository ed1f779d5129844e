// Every key of the locale files is used somewhere in the app's code (pwa/src, tests excluded): a text
// nothing shows is dead weight in every first page's download and a trap for translators.
// A key counts as used when the code has it as a whole string literal ("auth.signIn.title"), or when
// a template literal builds it from a literal prefix (`dashboard.dimensions.${d}` uses every key under
// "dashboard.dimensions."). Plural forms (_one, _other, ...) count as their base key. Keys built any
// other way must be listed in DYNAMIC with where they are built.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import es from "./locales/es.json";

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Prefixes of keys the code builds in ways the scan cannot see: prefix → where. */
const DYNAMIC: Record<string, string> = {};

/**
 * Keys unused when this test was written (session of 25 Nov 2026), left to their sections' owners:
 * use them or delete them from both files, then delete them here (the test says when).
 */
const KNOWN_UNUSED = new Set([
  "wealthMap.legendLow",
  "wealthMap.legendHigh",
  "profile.delete.mismatch",
  "workspaces.list.name",
  "workspaces.list.kind",
  "workspaces.list.role",
  "ui.money.amount",
  "ui.table.sortAscending",
  "ui.table.sortDescending",
  "legal.contents",
  "account.password.required",
  "assets.money.totalsLabel",
  "assets.loading",
  "assetAdd.picker.classes",
  "assetAdd.picker.categoriesOf",
  "assetAdd.picker.allClasses",
  "assetAdd.failed",
  "assetAdd.fixErrors",
  "money.missingRate",
  "money.returns.timeWeighted",
  "money.returns.period",
  "money.returns.totalLoss",
  "money.fxEffect.inCurrency",
  "money.fxEffect.inBase",
  "billing.cardCheck.continue",
]);

const PLURAL = /_(?:zero|one|two|few|many|other)$/;

function leafKeys(node: unknown, prefix = ""): string[] {
  if (node === null || typeof node !== "object") return [prefix];
  return Object.entries(node).flatMap(([key, value]) => leafKeys(value, prefix ? `${prefix}.${key}` : key));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "locales" ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** What the code uses: whole literals and the literal prefixes of template literals. */
function usage(code: string): { literals: Set<string>; prefixes: string[] } {
  const literals = new Set([...code.matchAll(/["'`]([A-Za-z0-9_]+(?:\.[A-Za-z0-9_-]+)+)["'`]/g)].map((m) => m[1] ?? ""));
  const prefixes = [...code.matchAll(/`([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*\.)\$\{/g)].map((m) => m[1] ?? "");
  return { literals, prefixes };
}

function unusedKeys(keys: string[], code: string): string[] {
  const { literals, prefixes } = usage(code);
  const dynamic = Object.keys(DYNAMIC);
  return keys.filter((key) => {
    const base = key.replace(PLURAL, "");
    return !literals.has(base) && ![...prefixes, ...dynamic].some((p) => base.startsWith(p));
  });
}

describe("locale keys", () => {
  const code = sourceFiles(SRC)
    .map((file) => readFileSync(file, "utf8"))
    .join("\n");
  const unused = unusedKeys(leafKeys(es), code);

  test("every key of es.json (en.json has the same, locales.test.ts) is used by the app", () => {
    expect(unused.filter((key) => !KNOWN_UNUSED.has(key))).toEqual([]);
  });

  test("the list of known unused keys only holds keys that are still there and still unused", () => {
    const present = new Set(leafKeys(es));
    expect([...KNOWN_UNUSED].filter((key) => !present.has(key) || !unused.includes(key))).toEqual([]);
  });

  test("the scan sees literals, template prefixes and plural forms", () => {
    const keys = ["a.b", "a.c_one", "a.c_other", "d.e.f", "d.e.g", "h.i"];
    expect(unusedKeys(keys, 'x = t("a.b"); y = t("a.c", { count }); z = t(`d.e.${k}`);')).toEqual(["h.i"]);
  });
});
