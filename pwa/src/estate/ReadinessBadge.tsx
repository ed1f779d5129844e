// The count on the sidebar's Beneficiaries entry: how many things the readiness tab asks to look at
// (assets without beneficiaries or allocated over or under 100 %, beneficiaries without contact data).
// Loaded lazily by the sidebar (navigation.ts), rendered inside the entry's link; nothing while the
// device database opens or when there is nothing to look at.
import { useWorkspaceRecords } from "@patrimonio/clientdb";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { heldAssets } from "../assets/disposal";
import { useAssetWorkspace } from "../assets/hooks";
import { readinessCount } from "./count";
import styles from "./ReadinessBadge.module.css";

export function ReadinessBadge() {
  const { t } = useTranslation();
  const { workspaceId } = useAssetWorkspace();
  const assets = useWorkspaceRecords("assets", workspaceId);
  const beneficiaries = useWorkspaceRecords("beneficiaries", workspaceId);
  const count = useMemo(
    // What the person still holds (a sold asset needs no beneficiary), as the readiness tab.
    () => (assets && beneficiaries ? readinessCount(heldAssets(assets).map((a) => a.id), beneficiaries) : 0),
    [assets, beneficiaries],
  );
  if (count === 0) return null;
  return (
    <span className={styles.badge} data-testid="readiness-count" data-count={count}>
      <span aria-hidden="true">{count}</span>
      <span className="visually-hidden">{t("beneficiaries.readiness.navCount", { count })}</span>
    </span>
  );
}

export default ReadinessBadge;
