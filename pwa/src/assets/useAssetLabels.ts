// Class and category labels and lists in the reader's language, from the device's enumeration cache
// (live: an admin's new category appears after the next refresh, which mounting this hook asks for:
// a conditional GET, deduplicated), with the shared schema's bundled labels as the fallback so a
// device that never fetched the enumerations still works offline.
// Lists render <AssetLabelsProvider> once: every useAssetLabels() inside then shares its queries
// instead of running two live queries per row.
import { useEnums, type EnumValue } from "@patrimonio/clientdb";
import type { AssetClass } from "@patrimonio/shared-schema";
import { createContext, createElement, useCallback, useContext, useMemo, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useEnumsRefresh } from "../api/enums";
import {
  CATEGORY_ENUM_TYPE,
  CLASS_ENUM_TYPE,
  categoriesOfClass,
  categoryCodeOf,
  categoryIdOf,
  categoryLabelOf,
  classLabelOf,
  type CategoryOption,
} from "./classes";

export interface AssetLabels {
  classLabel(code: AssetClass): string;
  /** custom → the custom name when given; an unknown code shows as it is. */
  categoryLabel(code: string, customCategory?: string, classCode?: AssetClass): string;
  /** Fixed + active admin-added (+ inactive with includeInactive) + custom last. */
  categoriesOf(classCode: AssetClass, options?: { includeInactive?: boolean; includeCustom?: boolean }): CategoryOption[];
  categoryIdOf(code: string, classCode: AssetClass): number | undefined;
  categoryCodeOf(id: number): { code: string; classCode: AssetClass } | undefined;
  /** The cached enumerations were read (labels work before too: bundled fallback). */
  ready: boolean;
  language: string;
}

const ALL = { includeInactive: true } as const;

const AssetLabelsContext = createContext<AssetLabels | null>(null);

/** Shares one set of labels (two live queries) with every useAssetLabels() inside. */
export function AssetLabelsProvider({ children }: { children?: ReactNode }) {
  const labels = useOwnLabels(true);
  return createElement(AssetLabelsContext.Provider, { value: labels }, children);
}

/** The labels: the nearest AssetLabelsProvider's, else this component's own. */
export function useAssetLabels(): AssetLabels {
  const shared = useContext(AssetLabelsContext);
  const own = useOwnLabels(shared === null);
  return shared ?? own;
}

function useOwnLabels(enabled: boolean): AssetLabels {
  const { t, i18n } = useTranslation();
  const language = i18n.language;
  useEnumsRefresh();
  const classes = useEnums(enabled ? CLASS_ENUM_TYPE : undefined, undefined, ALL);
  const categories = useEnums(enabled ? CATEGORY_ENUM_TYPE : undefined, undefined, ALL);
  const enums = useMemo<EnumValue[]>(() => [...(classes ?? []), ...(categories ?? [])], [classes, categories]);
  const tr = useCallback((key: string): string => t(key as never), [t]);
  return useMemo(
    () => ({
      classLabel: (code) => classLabelOf(code, language, tr, enums),
      categoryLabel: (code, custom, classCode) => categoryLabelOf(code, language, tr, enums, custom, classCode),
      categoriesOf: (classCode, options) => categoriesOfClass(classCode, language, tr, enums, options),
      categoryIdOf: (code, classCode) => categoryIdOf(code, classCode, enums),
      categoryCodeOf: (id) => categoryCodeOf(id, enums),
      ready: classes !== undefined && categories !== undefined,
      language,
    }),
    [language, tr, enums, classes, categories],
  );
}
