// Provinces and states (ISO 3166-2 subdivisions) as the forms store and the screens show them.
// A picked province is stored as its code ("ES-PM"), so every reader sees its name in their own
// language ("Illes Balears" / "Balearic Islands"). Records written before stored the name in the
// writer's language: such a name is matched (accents and case aside) against the country's
// subdivisions in both languages, shown as the subdivision's name in the reader's language and
// turned into the code when the form is edited. A country whose subdivisions the device does not
// know keeps free text, shown as it was typed.
import { enumLabel, useEnums, type EnumValue } from "@patrimonio/clientdb";
import { useMemo } from "react";
import { foldText } from "../ui/search";

const ALL = { includeInactive: true } as const;

export interface SubdivisionIndex {
  byCode: ReadonlyMap<string, EnumValue>;
  /** "ES\u0000illes balears" → "ES-PM" (both languages' names). */
  byName: ReadonlyMap<string, string>;
  /** Per country, the subdivisions a person picks (leaves, active), in the list's order. */
  leaves: ReadonlyMap<string, readonly EnumValue[]>;
}

/** The country of a subdivision code ("ES-PM" → "ES"). */
function countryOf(code: string): string {
  return code.split("-")[0] ?? "";
}

export function indexSubdivisions(values: readonly EnumValue[]): SubdivisionIndex {
  const byCode = new Map<string, EnumValue>();
  const byName = new Map<string, string>();
  const leaves = new Map<string, EnumValue[]>();
  const parents = new Set(values.map((v) => v.parentId));
  const sorted = [...values].sort((a, b) => a.order - b.order || a.id - b.id);
  for (const v of sorted) {
    byCode.set(v.code, v);
    const country = countryOf(v.code);
    const leaf = !parents.has(v.id);
    for (const name of [v.labels.es, v.labels.en]) {
      const key = `${country}\u0000${foldText(name.trim())}`;
      // A leaf (what the picker offers) wins over a region of the same name.
      if (!byName.has(key) || leaf) byName.set(key, v.code);
    }
    if (leaf && v.active) leaves.set(country, [...(leaves.get(country) ?? []), v]);
  }
  return { byCode, byName, leaves };
}

/** The code of a stored province of a country: the code itself, or the code a name (either language) names; else undefined. */
export function subdivisionCode(index: SubdivisionIndex | undefined, country: string | undefined, stored: string | undefined): string | undefined {
  if (!index || !stored) return undefined;
  const known = index.byCode.get(stored);
  if (known && (!country || countryOf(known.code) === country)) return known.code;
  if (!country) return undefined;
  return index.byName.get(`${country}\u0000${foldText(stored.trim())}`);
}

/** A stored province as the reader reads it: its name in their language when known, else as stored. */
export function subdivisionText(index: SubdivisionIndex | undefined, country: string | undefined, stored: string | undefined, language: string): string {
  if (!stored) return "";
  const code = subdivisionCode(index, country, stored);
  const value = code ? index?.byCode.get(code) : undefined;
  return value ? enumLabel(value, language) : stored;
}

/** The picker options of a country's subdivisions (value: the code), or undefined when none are known. */
export function subdivisionOptions(
  index: SubdivisionIndex | undefined,
  country: string,
  language: string,
): { value: string; label: string; hint: string; keywords: string[] }[] | undefined {
  const list = country ? index?.leaves.get(country) : undefined;
  if (!list || list.length === 0) return undefined;
  // The other language's name finds it too ("Balearic" in Spanish).
  return list.map((v) => ({ value: v.code, label: enumLabel(v, language), hint: v.code, keywords: [v.labels.es, v.labels.en] }));
}

/** Every cached subdivision, indexed (live: follows a refresh of the enumerations); undefined while loading. */
export function useSubdivisions(): SubdivisionIndex | undefined {
  const values = useEnums("state", undefined, ALL);
  return useMemo(() => (values ? indexSubdivisions(values) : undefined), [values]);
}
