// "Add asset": a link to the add flow (/assets/new, H3's screens) for owners and editors; for a
// viewer a disabled button that says why (the role's read-only reason).
import { Link } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { AssetWorkspace } from "../../../assets/hooks";
import { Button, buttonClass } from "../../../ui/Button";
import styles from "./AssetList.module.css";

export function AddAssetAction({ workspace, categoryId }: { workspace: AssetWorkspace; categoryId?: number }) {
  const { t } = useTranslation();
  const reasonId = useId();
  if (workspace.canEdit || workspace.role === undefined) {
    return (
      <Link
        to="/assets/new"
        search={categoryId === undefined ? {} : { categoryId }}
        className={buttonClass({ variant: "primary" })}
        data-testid="add-asset"
      >
        <Plus size={16} aria-hidden="true" />
        {t("assetList.add")}
      </Link>
    );
  }
  return (
    <div>
      <Button variant="primary" icon={<Plus size={16} />} disabled aria-describedby={reasonId} data-testid="add-asset">
        {t("assetList.add")}
      </Button>
      <p id={reasonId} className={styles.addReason}>
        {t((workspace.readOnlyReasonKey ?? "assetList.readOnly") as "assetList.readOnly")}
      </p>
    </div>
  );
}
