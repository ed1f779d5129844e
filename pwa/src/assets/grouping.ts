// Groups of the asset list: per class (the list) and per category (one class), each with its count
// and totals. Totals are per currency (see money.ts): `totals` adds current values, and
// `participationTotals` the owner's part of them; assets without a current value count but add nothing.
import { ASSET_CATEGORIES_BY_CLASS, ASSET_CLASSES, type AssetClass } from "@patrimonio/shared-schema";
import { ASSET_CLASS_IDS, CUSTOM_CATEGORY_N, categoryIdOf } from "./classes";
import type { EnumValue } from "@patrimonio/clientdb";
import { sumByCurrency, type MoneyTotals } from "./money";
import { participationValueOf } from "./participation";

interface GroupableAsset {
  id: string;
  fields: {
    assetClass: AssetClass;
    category: string;
    currency: string;
    currentValue?: string | undefined;
    participation?: string | undefined;
  };
}

export interface AssetGroup<T> {
  count: number;
  assets: T[];
  /** Sum of current values per currency. */
  totals: MoneyTotals;
  /** Sum of participation values per currency. */
  participationTotals: MoneyTotals;
}

export interface ClassGroup<T> extends AssetGroup<T> {
  classId: number;
  classCode: AssetClass;
}

export interface CategoryGroup<T> extends AssetGroup<T> {
  /** The category's numeric id (undefined: an admin-added code this device's cache does not know). */
  categoryId: number | undefined;
  code: string;
}

function summarise<T extends GroupableAsset>(assets: T[]): AssetGroup<T> {
  return {
    count: assets.length,
    assets,
    totals: sumByCurrency(assets.map((a) => ({ amount: a.fields.currentValue, currency: a.fields.currency }))),
    participationTotals: sumByCurrency(assets.map((a) => ({ amount: participationValueOf(a.fields), currency: a.fields.currency }))),
  };
}

/** One group per class that has assets, in class order (1–8); rows keep their given order. */
export function groupByClass<T extends GroupableAsset>(assets: readonly T[]): ClassGroup<T>[] {
  const by = new Map<AssetClass, T[]>();
  for (const a of assets) {
    const list = by.get(a.fields.assetClass);
    if (list) list.push(a);
    else by.set(a.fields.assetClass, [a]);
  }
  return ASSET_CLASSES.filter((c) => by.has(c)).map((c) => ({ classId: ASSET_CLASS_IDS[c], classCode: c, ...summarise(by.get(c)!) }));
}

/**
 * One group per category of the class that has assets: the fixed categories in their order, then
 * other codes (admin-added) by id, then custom ones (all custom names together, like their route).
 */
export function groupByCategory<T extends GroupableAsset>(assets: readonly T[], classCode: AssetClass, enums?: readonly EnumValue[]): CategoryGroup<T>[] {
  const by = new Map<string, T[]>();
  for (const a of assets) {
    if (a.fields.assetClass !== classCode) continue;
    const list = by.get(a.fields.category);
    if (list) list.push(a);
    else by.set(a.fields.category, [a]);
  }
  const fixed: readonly string[] = ASSET_CATEGORIES_BY_CLASS[classCode];
  const rank = (code: string): number => {
    if (code === "custom") return Number.MAX_SAFE_INTEGER;
    const i = fixed.indexOf(code);
    if (i >= 0) return i;
    return 1000 + (categoryIdOf(code, classCode, enums) ?? Number.MAX_SAFE_INTEGER - 1);
  };
  return [...by.keys()]
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : 1))
    .map((code) => ({ categoryId: categoryIdOf(code, classCode, enums), code, ...summarise(by.get(code)!) }));
}

/** The assets of one category id (custom: class × 100 + 99 holds every custom-named one). */
export function assetsOfCategory<T extends GroupableAsset>(assets: readonly T[], classCode: AssetClass, categoryId: number, enums?: readonly EnumValue[]): T[] {
  if (categoryId === ASSET_CLASS_IDS[classCode] * 100 + CUSTOM_CATEGORY_N) return assets.filter((a) => a.fields.assetClass === classCode && a.fields.category === "custom");
  return assets.filter((a) => a.fields.assetClass === classCode && categoryIdOf(a.fields.category, classCode, enums) === categoryId);
}
