// /assets/classes/{assetType}/category/{categoryId}: the assets of one category, with the way back
// to its class and to the list. Ids are numbers (classes 1–8, categories class × 100 + n, custom
// class × 100 + 99, admins' from 1000000); an unknown id, or a category of another class, is Not Found.
import { useParams } from "@tanstack/react-router";
import type { AssetClass } from "@patrimonio/shared-schema";
import { FolderOpen } from "lucide-react";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { classIdOf, parseClassParam } from "../../../assets/classes";
import { useAssets, useAssetWorkspace, type AssetRec } from "../../../assets/hooks";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import { NotFound } from "../../../router/fallbacks";
import { EmptyState } from "../../../ui/EmptyState";
import { PageHeader } from "../../../ui/PageHeader";
import { ReadOnlyNotice } from "../common/ReadOnlyNotice";
import page from "../../page.module.css";
import { AddAssetAction } from "./AddAssetAction";
import { AssetBrowser, BrowserSkeleton } from "./AssetBrowser";
import { Breadcrumbs } from "./Breadcrumbs";
import type { GroupSpec } from "./GroupedAssetTable";

export function AssetCategoryScreen() {
  const { assetType, categoryId } = useParams({ strict: false }) as { assetType?: string; categoryId?: string };
  const labels = useAssetLabels();
  const classCode = parseClassParam(assetType ?? "");
  const id = /^[0-9]{1,9}$/.test(categoryId ?? "") ? Number(categoryId) : undefined;
  if (!classCode || id === undefined) return <NotFound />;
  const category = labels.categoriesOf(classCode, { includeInactive: true }).find((c) => c.id === id);
  if (!category) {
    // Admins' categories are known once the enumeration cache has been read.
    return labels.ready ? <NotFound /> : <BrowserSkeleton />;
  }
  return <CategoryView classCode={classCode} categoryId={id} code={category.code} label={category.label} />;
}

function CategoryView({ classCode, categoryId, code, label }: { classCode: AssetClass; categoryId: number; code: string; label: string }) {
  const { t } = useTranslation();
  const workspace = useAssetWorkspace();
  const labels = useAssetLabels();
  const all = useAssets();
  const assets = useMemo(() => all?.filter((a) => a.fields.assetClass === classCode && a.fields.category === code), [all, classCode, code]);
  const classLabel = labels.classLabel(classCode);
  const classId = classIdOf(classCode);

  const group = useCallback(
    (found: AssetRec[]): GroupSpec[] => [{ id: categoryId, label, items: found }],
    [categoryId, label],
  );

  return (
    <div className={page.page}>
      <PageHeader
        back={
          <Breadcrumbs
            items={[
              { label: t("assetList.title"), link: { to: "/assets" } },
              { label: classLabel, link: { to: "/assets/classes/$assetType", params: { assetType: String(classId) } } },
              { label },
            ]}
          />
        }
        title={label}
        subtitle={classLabel}
        actions={<AddAssetAction workspace={workspace} categoryId={categoryId} />}
      />
      <ReadOnlyNotice />
      <AssetBrowser
        assets={assets}
        group={group}
        headers={false}
        tableLabel={t("assetList.table.ofCategory", { category: label })}
        csvName={`${t("assetList.csvName")}-${label}`}
        empty={
          <EmptyState
            data-testid="category-empty"
            icon={<FolderOpen size={24} />}
            title={t("assetList.category.noAssets")}
            text={t("assetList.category.noAssetsText", { category: label })}
          />
        }
      />
    </div>
  );
}
