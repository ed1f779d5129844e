// What the lists need of every asset, computed once per asset and kept while it does not change:
// its search text (pwa/src/assets/search.ts's assetSearchText, folded) and its participation value
// as an exact integer of 1e-4 units (the money format's precision), so a keystroke on 10,000
// assets only scans strings and adds integers. A live query answers new record objects on every
// change of the table, so the cache is keyed by id and by the values the facts come from.
import type { AssetRec } from "../../../assets/hooks";
import type { MoneyTotals } from "../../../assets/money";
import { participationValueOf } from "../../../assets/participation";
import { assetSearchText, type AssetSearchContext, type AssetSearchIndex } from "../../../assets/search";

/** 1e-4 units of a non-negative decimal string with at most 4 decimals ("12.5" → 125000n). */
export function toUnits(amount: string): bigint {
  const [whole = "0", fraction = ""] = amount.split(".");
  return BigInt(whole + fraction.padEnd(4, "0").slice(0, 4));
}

/** The decimal string of 1e-4 units (125000n → "12.5"; no trailing zeros, "0" for zero). */
export function unitsToDecimal(units: bigint): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(5, "0");
  const whole = digits.slice(0, -4);
  const fraction = digits.slice(-4).replace(/0+$/, "");
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** Sums 1e-4 units per currency (items without units are skipped), sorted by currency code. */
export function sumUnits(items: Iterable<{ units: bigint | undefined; currency: string }>): MoneyTotals {
  const sums = new Map<string, bigint>();
  for (const { units, currency } of items) {
    if (units === undefined) continue;
    sums.set(currency, (sums.get(currency) ?? 0n) + units);
  }
  return [...sums.keys()].sort().map((currency) => ({ currency, amount: unitsToDecimal(sums.get(currency)!) }));
}

interface Facts {
  /** The fields the facts were computed from (compared value by value with a new answer's). */
  source: AssetRec["fields"];
  text: string;
  units: bigint | undefined;
}

/** Whether the values the facts come from are the same (no allocation: this runs for every asset
 * on every answer of the live query). */
function sameSource(a: AssetRec["fields"], b: AssetRec["fields"]): boolean {
  if (a === b) return true;
  const ta = a.taxLocation;
  const tb = b.taxLocation;
  return (
    a.name === b.name &&
    a.category === b.category &&
    a.customCategory === b.customCategory &&
    a.institution === b.institution &&
    a.isin === b.isin &&
    a.currentValue === b.currentValue &&
    a.participation === b.participation &&
    ta?.country === tb?.country &&
    ta?.state === tb?.state &&
    ta?.city === tb?.city
  );
}

export interface ListIndex extends AssetSearchIndex<AssetRec> {
  /** Participation value of an asset in 1e-4 units (undefined without a current value). */
  unitsOf(asset: AssetRec): bigint | undefined;
}

/** Builds the index of `assets`, reusing what `cache` holds for unchanged assets. */
export function buildListIndex(assets: readonly AssetRec[], ctx: AssetSearchContext, cache: Map<string, Facts>): ListIndex {
  const texts: string[] = new Array<string>(assets.length);
  for (let i = 0; i < assets.length; i++) {
    const asset = assets[i]!;
    let facts = cache.get(asset.id);
    if (!facts || !sameSource(facts.source, asset.fields)) {
      const value = participationValueOf(asset.fields);
      facts = { source: asset.fields, text: assetSearchText(asset, ctx), units: value === undefined ? undefined : toUnits(value) };
      cache.set(asset.id, facts);
    }
    texts[i] = facts.text;
  }
  // Entries of assets not in this list stay: the class and category screens index a part of the
  // list, and coming back to the whole list must not recompute the rest. A deleted asset's entry
  // (a few strings) stays until the page is reloaded or the labels change.
  return { items: assets, texts, unitsOf: (asset) => cache.get(asset.id)?.units };
}

/** The cache of the labels in use: kept at module level so that coming back to a list (another
 * mount) reuses it; `signature` names the labels (language, enumerations) the texts hold, and a
 * new signature starts a new cache. */
let shared: { signature: string; cache: Map<string, Facts> } | null = null;

export function listIndexCache(signature: string): Map<string, Facts> {
  if (shared === null || shared.signature !== signature) shared = { signature, cache: new Map() };
  return shared.cache;
}
