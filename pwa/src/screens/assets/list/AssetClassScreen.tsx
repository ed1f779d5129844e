// /assets/classes/{assetType}/?collIds=…&q=…: one class (assetType: its numeric id, 1–8) with its
// categories, each with its count and total, collapsible (collIds: the collapsed categories' ids).
// "No assets in this class" when it has none; "No categories available" when it has no assets and no
// active category to add one to (an admin deactivated them all in the enumerations; the free
// "custom" category does not count). An unknown class id is Not Found.
import { useParams } from "@tanstack/react-router";
import type { AssetClass } from "@patrimonio/shared-schema";
import { FolderOpen } from "lucide-react";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { classIdOf, hasAvailableCategories, parseClassParam } from "../../../assets/classes";
import { useAssets, useAssetWorkspace, type AssetRec } from "../../../assets/hooks";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import { NotFound } from "../../../router/fallbacks";
import { EmptyState } from "../../../ui/EmptyState";
import { PageHeader } from "../../../ui/PageHeader";
import { ReadOnlyNotice } from "../common/ReadOnlyNotice";
import page from "../../page.module.css";
import { AddAssetAction } from "./AddAssetAction";
import { AssetBrowser } from "./AssetBrowser";
import { Breadcrumbs } from "./Breadcrumbs";
import type { GroupSpec } from "./GroupedAssetTable";
import { bucket, unknownGroupId } from "./listModel";

export function AssetClassScreen() {
  const { assetType } = useParams({ strict: false }) as { assetType?: string };
  const classCode = parseClassParam(assetType ?? "");
  if (!classCode) return <NotFound />;
  return <ClassView classCode={classCode} />;
}

function ClassView({ classCode }: { classCode: AssetClass }) {
  const { t } = useTranslation();
  const workspace = useAssetWorkspace();
  const labels = useAssetLabels();
  const all = useAssets();
  const assets = useMemo(() => all?.filter((a) => a.fields.assetClass === classCode), [all, classCode]);
  const classLabel = labels.classLabel(classCode);
  const categories = useMemo(() => labels.categoriesOf(classCode, { includeInactive: true }), [labels, classCode]);
  const available = hasAvailableCategories(categories);

  const group = useCallback(
    (found: AssetRec[], searching: boolean): GroupSpec[] => {
      const byCode = bucket(found, (a) => a.fields.category);
      const assetType = String(classIdOf(classCode));
      const groups: GroupSpec[] = [];
      for (const c of categories) {
        // Every active category is listed (an empty one shows 0); while searching only those found.
        const items = byCode.get(c.code);
        byCode.delete(c.code);
        if (items || (!searching && c.active)) groups.push({ id: c.id, label: c.label, items: items ?? [], link: { assetType, categoryId: String(c.id) } });
      }
      // Codes this device's enumeration cache does not know yet (an admin's new category): a stable
      // synthetic id, so the group collapses and its key is unique.
      const taken = new Set(groups.map((g) => g.id));
      for (const [code, items] of byCode) {
        const id = labels.categoryIdOf(code, classCode) ?? unknownGroupId(code, taken);
        taken.add(id);
        groups.push({ id, label: labels.categoryLabel(code, undefined, classCode), items });
      }
      return groups;
    },
    [categories, classCode, labels],
  );

  return (
    <div className={page.page}>
      <PageHeader
        back={<Breadcrumbs items={[{ label: t("assetList.title"), link: { to: "/assets" } }, { label: classLabel }]} />}
        title={classLabel}
        subtitle={t("assetList.class.subtitle")}
        actions={<AddAssetAction workspace={workspace} />}
      />
      <ReadOnlyNotice />
      {!available && labels.ready && assets !== undefined && assets.length === 0 ? (
        <EmptyState
          data-testid="no-categories"
          icon={<FolderOpen size={24} />}
          title={t("assetList.class.noCategories")}
          text={t("assetList.class.noCategoriesText", { class: classLabel })}
        />
      ) : (
        <AssetBrowser
          assets={assets}
          group={group}
          tableLabel={t("assetList.table.byCategory", { class: classLabel })}
          csvName={`${t("assetList.csvName")}-${classLabel}`}
          empty={
            <EmptyState
              data-testid="class-empty"
              icon={<FolderOpen size={24} />}
              title={t("assetList.class.noAssets")}
              text={t("assetList.class.noAssetsText", { class: classLabel })}
            />
          }
        />
      )}
    </div>
  );
}
