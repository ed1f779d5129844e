// /assets/?tab=accounts|legal-structures&collIds=…&q=…: the asset list (spec §2). Two tabs kept in
// the URL: the assets grouped per class (search, collapse and expand, CSV) and the legal
// structures (H5's tree). Everything comes from the device database, so it works offline.
import { Link } from "@tanstack/react-router";
import { Wallet } from "lucide-react";
import { lazy, Suspense, useCallback } from "react";
import { useTranslation } from "react-i18next";
import { ASSET_CLASSES } from "@patrimonio/shared-schema";
import { classIdOf } from "../../../assets/classes";
import { useAssets, useAssetWorkspace, type AssetRec } from "../../../assets/hooks";
import { useAssetLabels } from "../../../assets/useAssetLabels";
import { buttonClass } from "../../../ui/Button";
import { EmptyState } from "../../../ui/EmptyState";
import { PageHeader } from "../../../ui/PageHeader";
import { Skeleton } from "../../../ui/Skeleton";
import { Tab, TabList, TabPanel, Tabs, useSearchParamTab } from "../../../ui/Tabs";
import { ReadOnlyNotice } from "../common/ReadOnlyNotice";
import page from "../../page.module.css";
import { AddAssetAction } from "./AddAssetAction";
import { AssetBrowser } from "./AssetBrowser";
import styles from "./AssetList.module.css";
import type { GroupSpec } from "./GroupedAssetTable";
import { bucket } from "./listModel";

const LegalStructuresTab = lazy(() => import("../structures/LegalStructuresTab").then((m) => ({ default: m.LegalStructuresTab })));

export const ASSET_LIST_TABS = ["accounts", "legal-structures"] as const;

export function AssetListScreen() {
  const { t } = useTranslation();
  const workspace = useAssetWorkspace();
  const [tab, setTab] = useSearchParamTab("tab", ASSET_LIST_TABS, "accounts");
  return (
    <div className={page.page}>
      <PageHeader title={t("assetList.title")} subtitle={t("assetList.subtitle")} actions={<AddAssetAction workspace={workspace} />} />
      <ReadOnlyNotice />
      <Tabs value={tab} onChange={setTab} className={styles.tabs}>
        <TabList label={t("assetList.tabs.label")}>
          <Tab value="accounts">{t("assetList.tabs.accounts")}</Tab>
          <Tab value="legal-structures">{t("assetList.tabs.legalStructures")}</Tab>
        </TabList>
        <TabPanel value="accounts">
          <AccountsTab />
        </TabPanel>
        <TabPanel value="legal-structures">
          <Suspense fallback={<Skeleton shape="block" />}>
            <LegalStructuresTab />
          </Suspense>
        </TabPanel>
      </Tabs>
    </div>
  );
}

/** The assets grouped per class. */
function AccountsTab() {
  const { t } = useTranslation();
  const assets = useAssets();
  const workspace = useAssetWorkspace();
  const { classLabel } = useAssetLabels();
  const group = useCallback(
    (found: AssetRec[]): GroupSpec[] => {
      const byClass = bucket(found, (a) => a.fields.assetClass);
      return ASSET_CLASSES.filter((c) => byClass.has(c)).map((c) => ({
        id: classIdOf(c),
        items: byClass.get(c)!,
        label: classLabel(c),
        link: { assetType: String(classIdOf(c)) },
      }));
    },
    [classLabel],
  );
  return (
    <AssetBrowser
      assets={assets}
      group={group}
      tableLabel={t("assetList.table.byClass")}
      csvName={t("assetList.csvName")}
      empty={
        <EmptyState
          data-testid="assets-empty"
          icon={<Wallet size={24} />}
          title={t("assetList.empty.title")}
          text={t("assetList.empty.text")}
          action={
            workspace.canEdit ? (
              <Link to="/assets/new" className={buttonClass({ variant: "primary" })}>
                {t("assetList.empty.action")}
              </Link>
            ) : undefined
          }
        />
      }
    />
  );
}
