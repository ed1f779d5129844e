// Step 1 of adding an asset: the classes and their categories (the fixed ones, the active ones an
// admin added, and "custom" last), each category a link to the next step (?categoryId=<its stable
// numeric id>), so Back returns here and a link can start at any step. A search box filters across
// every class, ignoring accents and case. Each class is a titled list: screen readers can jump from
// class to class by heading and hear how many categories each has.
import { ASSET_CLASSES, type AssetClass } from "@patrimonio/shared-schema";
import { Link } from "@tanstack/react-router";
import { SearchX } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { CategoryOption } from "../../../assets/classes";
import type { AssetLabels } from "../../../assets/useAssetLabels";
import { Card } from "../../../ui/Card";
import { EmptyState } from "../../../ui/EmptyState";
import { Field } from "../../../ui/Field";
import { Heading } from "../../../ui/Heading";
import { SearchInput } from "../../../ui/SearchInput";
import { filterByText } from "../../../ui/search";
import styles from "./AddAsset.module.css";
import type { AddAssetSearch } from "./flow";

interface Option extends CategoryOption {
  keywords: string[];
}

export function CategoryPicker({ labels, onlyClass, search }: { labels: AssetLabels; onlyClass?: AssetClass; search: AddAssetSearch }) {
  const { t } = useTranslation();
  const [query, setQuery] = useState("");
  const headingBase = useId();
  const groups = useMemo(
    () =>
      (onlyClass ? [onlyClass] : ASSET_CLASSES).map((classCode) => {
        const classLabel = labels.classLabel(classCode);
        const options: Option[] = labels
          .categoriesOf(classCode)
          .filter((c) => c.active)
          .map((c) => ({ ...c, keywords: [classLabel, c.code.replace(/_/g, " ")] }));
        return { classCode, classLabel, options };
      }),
    [onlyClass, labels],
  );
  const shown = useMemo(
    () => groups.map((g) => ({ ...g, options: filterByText(g.options, query) })).filter((g) => g.options.length > 0),
    [groups, query],
  );
  const total = groups.reduce((n, g) => n + g.options.length, 0);

  return (
    <Card title={t("assetAdd.picker.title")} description={t("assetAdd.picker.subtitle")} data-testid="category-picker">
      <Field label={t("assetAdd.picker.search")} className={styles.search}>
        <SearchInput value={query} onChange={setQuery} placeholder={t("assetAdd.picker.searchPlaceholder")} data-testid="category-search" />
      </Field>
      {total === 0 ? (
        <EmptyState plain headingLevel={3} icon={<SearchX size={24} />} title={t("assetAdd.picker.noCategories")} />
      ) : shown.length === 0 ? (
        <EmptyState plain headingLevel={3} icon={<SearchX size={24} />} title={t("assetAdd.picker.noResults", { query: query.trim() })} data-testid="category-no-results" />
      ) : (
        <div className={styles.classes}>
          {shown.map((group) => {
            const headingId = `${headingBase}-${group.classCode}`;
            return (
              <section key={group.classCode} aria-labelledby={headingId} data-testid={`class-${group.classCode}`}>
                <Heading level={3} id={headingId} className={styles.classTitle}>
                  {group.classLabel}
                </Heading>
                <ul className={styles.choices} aria-labelledby={headingId}>
                  {group.options.map((option) => (
                    <li key={option.id}>
                      <Link
                        to="/assets/new"
                        search={{ ...(search.structureId ? { structureId: search.structureId } : {}), categoryId: option.id }}
                        className={styles.choice}
                        data-testid={`category-option-${option.id}`}
                        data-category-code={option.code}
                      >
                        <span>{option.label}</span>
                        {option.custom && <span className={styles.choiceHint}>{t("assetAdd.picker.customHint")}</span>}
                      </Link>
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      )}
    </Card>
  );
}
