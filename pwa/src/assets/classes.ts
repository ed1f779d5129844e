// Asset classes and categories by their stable numeric ids (server/enums/data/fixed.csv): classes
// 1–8 in the spec's order, categories class × 100 + n, values admins add from 1000000 (known to the
// device through its enumeration cache). The schema's "custom" category (a free name in
// customCategory) has no server id; on the device it is class × 100 + 99, so it routes like the others.
// Labels: the cached enumerations in the reader's language, else the shared schema's bundled labels
// "schema:labels.assetClass.<code>" / "schema:labels.assetCategory.<code>" (the same texts as the
// server's seed, always loaded with the app's texts), so a device that never fetched them works offline.
import type { EnumValue } from "@patrimonio/clientdb";
import { ASSET_CATEGORIES_BY_CLASS, ASSET_CLASSES, type AssetClass } from "@patrimonio/shared-schema";

export const ASSET_CLASS_IDS = Object.fromEntries(ASSET_CLASSES.map((c, i) => [c, i + 1])) as Record<AssetClass, number>;

/** The fixed categories' numbers within their class (fixed.csv), without "custom". */
const FIXED_CATEGORY_N: Record<string, number> = {};
for (const cls of ASSET_CLASSES) {
  ASSET_CATEGORIES_BY_CLASS[cls].forEach((code, i) => {
    if (code !== "custom") FIXED_CATEGORY_N[`${cls}/${code}`] = i + 1;
  });
}

export const CUSTOM_CATEGORY_N = 99;
/** Ids from here up are values admins added. */
export const ADMIN_ENUM_MIN_ID = 1_000_000;
export const CLASS_ENUM_TYPE = "asset_class";
export const CATEGORY_ENUM_TYPE = "asset_category";

export function isAssetClass(code: string): code is AssetClass {
  return (ASSET_CLASSES as readonly string[]).includes(code);
}

export function classIdOf(code: AssetClass): number {
  return ASSET_CLASS_IDS[code];
}

export function classCodeOf(id: number): AssetClass | undefined {
  return Number.isInteger(id) && id >= 1 && id <= ASSET_CLASSES.length ? ASSET_CLASSES[id - 1] : undefined;
}

/** Parses a route's class segment: the numeric id ("1") or, leniently, the code ("real_estate"). */
export function parseClassParam(param: string): AssetClass | undefined {
  if (/^[0-9]+$/.test(param)) return classCodeOf(Number(param));
  return isAssetClass(param) ? param : undefined;
}

export function isCustomCategoryId(id: number): boolean {
  return id >= 100 && id < 1000 && id % 100 === CUSTOM_CATEGORY_N && classCodeOf(Math.floor(id / 100)) !== undefined;
}

/**
 * A category's id: fixed ones and custom by rule, admin-added ones from the cached enumerations
 * (type asset_category under the class). Undefined when unknown.
 */
export function categoryIdOf(code: string, classCode: AssetClass, enums?: readonly EnumValue[]): number | undefined {
  const classId = ASSET_CLASS_IDS[classCode];
  if (code === "custom") return classId * 100 + CUSTOM_CATEGORY_N;
  const n = FIXED_CATEGORY_N[`${classCode}/${code}`];
  if (n !== undefined) return classId * 100 + n;
  return enums?.find((e) => e.type === CATEGORY_ENUM_TYPE && e.code === code && e.parentId === classId)?.id;
}

/** A category id's code and class (fixed, custom, or admin-added through the cached enumerations). */
export function categoryCodeOf(id: number, enums?: readonly EnumValue[]): { code: string; classCode: AssetClass } | undefined {
  if (id >= 100 && id < 1000) {
    const classCode = classCodeOf(Math.floor(id / 100));
    if (!classCode) return undefined;
    if (id % 100 === CUSTOM_CATEGORY_N) return { code: "custom", classCode };
    const code = ASSET_CATEGORIES_BY_CLASS[classCode].find((c) => FIXED_CATEGORY_N[`${classCode}/${c}`] === id % 100);
    return code ? { code, classCode } : undefined;
  }
  const e = enums?.find((v) => v.id === id && v.type === CATEGORY_ENUM_TYPE);
  const classCode = e ? classCodeOf(e.parentId) : undefined;
  return e && classCode ? { code: e.code, classCode } : undefined;
}

/** One category as pickers and groupings see it. */
export interface CategoryOption {
  id: number;
  code: string;
  classCode: AssetClass;
  label: string;
  /** false: deactivated by an admin (readable on old records, not offered for new ones). */
  active: boolean;
  /** The schema's "custom" choice (the person types the category's name). */
  custom: boolean;
}

/** A translator of full keys, namespace included ("schema:labels.assetClass.vehicles"). */
type Translate = (key: string) => string;

/** The bundled label keys (the shared schema's messages, namespace "schema"). */
export function classKey(code: string): string {
  return `schema:labels.assetClass.${code}`;
}

export function categoryKey(code: string): string {
  return `schema:labels.assetCategory.${code}`;
}

function pick(labels: { es: string; en: string }, language: string): string {
  return language.startsWith("en") ? labels.en : labels.es;
}

/** The label of a class: the cached enumeration's, else the bundled text. */
export function classLabelOf(code: AssetClass, language: string, t: Translate, enums?: readonly EnumValue[]): string {
  const e = enums?.find((v) => v.type === CLASS_ENUM_TYPE && v.code === code);
  return e ? pick(e.labels, language) : t(classKey(code));
}

/** The label of a category (custom: its custom name when given). Unknown codes show as they are. */
export function categoryLabelOf(
  code: string,
  language: string,
  t: Translate,
  enums?: readonly EnumValue[],
  customCategory?: string,
  classCode?: AssetClass,
): string {
  if (code === "custom") return customCategory ?? t(categoryKey("custom"));
  const classId = classCode ? ASSET_CLASS_IDS[classCode] : undefined;
  const e = enums?.find((v) => v.type === CATEGORY_ENUM_TYPE && v.code === code && (classId === undefined || v.parentId === classId));
  if (e) return pick(e.labels, language);
  const key = categoryKey(code);
  const text = t(key);
  // i18next answers a missing key with the key (without its namespace): show the code instead.
  return text === key || text === key.slice("schema:".length) ? code : text;
}

/**
 * The categories of a class: the fixed ones, then admin-added ones (active only, unless
 * includeInactive), then "custom" last. Ordered like the enumerations (order, then id).
 */
export function categoriesOfClass(
  classCode: AssetClass,
  language: string,
  t: Translate,
  enums?: readonly EnumValue[],
  options: { includeInactive?: boolean; includeCustom?: boolean } = {},
): CategoryOption[] {
  const classId = ASSET_CLASS_IDS[classCode];
  const out: CategoryOption[] = [];
  const cached = (enums ?? []).filter((e) => e.type === CATEGORY_ENUM_TYPE && e.parentId === classId);
  const byCode = new Map(cached.map((e) => [e.code, e]));
  for (const code of ASSET_CATEGORIES_BY_CLASS[classCode]) {
    if (code === "custom") continue;
    const e = byCode.get(code);
    const active = e?.active ?? true;
    if (!active && !options.includeInactive) continue;
    out.push({ id: categoryIdOf(code, classCode)!, code, classCode, label: categoryLabelOf(code, language, t, enums, undefined, classCode), active, custom: false });
  }
  const added = cached
    .filter((e) => e.id >= ADMIN_ENUM_MIN_ID && (e.active || options.includeInactive))
    .sort((a, b) => a.order - b.order || a.id - b.id);
  for (const e of added) {
    if (FIXED_CATEGORY_N[`${classCode}/${e.code}`] !== undefined) continue;
    out.push({ id: e.id, code: e.code, classCode, label: pick(e.labels, language), active: e.active, custom: false });
  }
  if (options.includeCustom !== false) {
    out.push({ id: classId * 100 + CUSTOM_CATEGORY_N, code: "custom", classCode, label: t(categoryKey("custom")), active: true, custom: true });
  }
  return out;
}

/** Whether a class offers a category to add an asset to: an active one other than "custom" (an
 * admin may deactivate them all; then the class page says "No categories available"). */
export function hasAvailableCategories(categories: readonly CategoryOption[]): boolean {
  return categories.some((c) => c.active && !c.custom);
}
