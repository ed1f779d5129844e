// Every kind of subdivision the seed has (ISO 3166-2 categories, server/enums/data/states.csv) and
// the levels of the other lists have a name in both languages, so the admin screen never shows a
// raw code such as "autonomous_city_in_north_africa".
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import en from "../../../i18n/locales/en.json";
import es from "../../../i18n/locales/es.json";

function seededLevels(): string[] {
  const csv = readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "..", "server", "enums", "data", "states.csv"), "utf8");
  const [header, ...rows] = csv.trim().split("\n");
  const column = header!.split(",").indexOf("level");
  // The labels may hold commas inside quotes; the level is before them (id,code,parent,level,…).
  return [...new Set(rows.map((row) => row.split(",")[column]!))].sort();
}

describe("subdivision level names", () => {
  const levels = seededLevels();

  test("the seed has the known kinds", () => {
    expect(levels).toContain("province");
    expect(levels).toContain("autonomous_community");
    expect(levels.length).toBeGreaterThan(100);
  });

  test.each(levels)("%s has a Spanish and an English name", (level) => {
    const esName = (es.enums.levels as Record<string, string>)[level];
    const enName = (en.enums.levels as Record<string, string>)[level];
    expect(esName, `es enums.levels.${level}`).toBeTruthy();
    expect(enName, `en enums.levels.${level}`).toBeTruthy();
    expect(enName).not.toContain("_");
  });
});
