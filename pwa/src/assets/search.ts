// The asset list's search: name, category (its label in the reader's language and a custom
// category's name), institution, ISIN and tax location (country code and name, state, city); case-
// and accent-insensitive ("inversion" finds "Inversión"). The folded text of every asset is built
// once per data change (buildAssetSearchIndex), so a keystroke only scans strings.
import { foldText } from "../ui/search";

export { foldText };

interface SearchableAsset {
  id: string;
  fields: {
    name: string;
    category: string;
    customCategory?: string | undefined;
    assetClass: string;
    institution?: string | undefined;
    isin?: string | undefined;
    taxLocation?: { country?: string | undefined; state?: string | undefined; city?: string | undefined } | undefined;
  };
}

export interface AssetSearchContext {
  /** The label of a category in the reader's language. */
  categoryLabel(code: string, customCategory?: string): string;
  /** A country's name in the reader's language (optional: the ISO code is searched anyway). */
  countryName?(code: string): string;
  /** A stored province (code or name) in the reader's language (optional: the stored text is searched anyway). */
  stateName?(country: string | undefined, state: string): string;
}

export interface AssetSearchIndex<T extends SearchableAsset> {
  items: readonly T[];
  texts: readonly string[];
}

/** The folded text an asset is found by (fields separated by a newline, so a query never spans two). */
export function assetSearchText(asset: SearchableAsset, ctx: AssetSearchContext): string {
  const f = asset.fields;
  const parts = [f.name, ctx.categoryLabel(f.category, f.customCategory), f.customCategory, f.institution, f.isin];
  const tax = f.taxLocation;
  if (tax) {
    parts.push(
      tax.country,
      tax.country && ctx.countryName ? ctx.countryName(tax.country) : undefined,
      tax.state,
      tax.state && ctx.stateName ? ctx.stateName(tax.country, tax.state) : undefined,
      tax.city,
    );
  }
  return foldText(parts.filter((p): p is string => p !== undefined && p !== "").join("\n"));
}

export function buildAssetSearchIndex<T extends SearchableAsset>(items: readonly T[], ctx: AssetSearchContext): AssetSearchIndex<T> {
  return { items, texts: items.map((a) => assetSearchText(a, ctx)) };
}

/** The assets whose text contains every word of the query (in any field, any order); "" → all. */
export function searchAssets<T extends SearchableAsset>(index: AssetSearchIndex<T>, query: string): T[] {
  const words = foldText(query).split(/\s+/).filter((w) => w !== "");
  if (words.length === 0) return [...index.items];
  const out: T[] = [];
  for (let i = 0; i < index.items.length; i++) {
    const text = index.texts[i]!;
    if (words.every((w) => text.includes(w))) out.push(index.items[i]!);
  }
  return out;
}

/** A country's name in a language, from the platform (Intl.DisplayNames); the code when unknown. */
export function intlCountryName(language: string): (code: string) => string {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([language.startsWith("en") ? "en-GB" : "es-ES"], { type: "region" });
  } catch {
    names = undefined;
  }
  return (code) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  };
}
