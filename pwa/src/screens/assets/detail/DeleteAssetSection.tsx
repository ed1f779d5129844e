// "Delete asset": cannot be undone (said so). The confirmation says what happens to the records
// that point at it (deleteAsset decides, in one transaction): its valuations are deleted, the debts
// tied to it are kept (still owed) without the asset, its instructions are kept as general ones,
// beneficiaries lose only this asset's allocation. Then back to the asset list.
import { deleteAsset } from "@patrimonio/clientdb";
import { useNavigate } from "@tanstack/react-router";
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notify } from "../../../toast/toast";
import { Alert } from "../../../ui/Alert";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { AlertDialog } from "../../../ui/Dialog";
import { useAssetDetail } from "./context";
import { useAssetDebts, useAssetInstructionRecords, useAssetValuations } from "./data";
import styles from "./detail.module.css";

export function DeleteAssetSection() {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const navigate = useNavigate();
  const valuations = useAssetValuations(asset.workspaceId, asset.id)?.length ?? 0;
  const debts = useAssetDebts(asset.workspaceId, asset.id)?.length ?? 0;
  const instructions = useAssetInstructionRecords(asset.workspaceId, asset.id)?.length ?? 0;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);

  async function confirm() {
    setBusy(true);
    setFailed(false);
    try {
      const result = await deleteAsset(db, asset.id);
      if (!result.ok) {
        setFailed(true);
        return;
      }
      setOpen(false);
      notify("success", t("assetDetail.delete.done", { name: asset.fields.name }));
      await navigate({ to: "/assets" });
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card tone="danger" title={t("assetDetail.delete.title")} description={t("assetDetail.delete.description")} data-testid="section-delete">
      <AlertDialog
        open={open}
        onOpenChange={setOpen}
        trigger={
          <Button variant="danger-outline" icon={<Trash2 size={16} />}>
            {t("assetDetail.delete.button")}
          </Button>
        }
        title={t("assetDetail.delete.confirmTitle", { name: asset.fields.name })}
        description={t("assetDetail.delete.cannotUndo")}
        confirmLabel={t("assetDetail.delete.confirm")}
        confirmLoadingLabel={t("assetDetail.delete.deleting")}
        loading={busy}
        onConfirm={() => void confirm()}
        error={failed ? <Alert tone="error">{t("assetDetail.delete.failed")}</Alert> : undefined}
        data-testid="delete-asset-dialog"
      >
        <ul className={styles.consequences} data-testid="delete-consequences">
          <li>{t("assetDetail.delete.valuations", { count: valuations })}</li>
          <li>{t("assetDetail.delete.debts", { count: debts })}</li>
          <li>{t("assetDetail.delete.instructions", { count: instructions })}</li>
          <li>{t("assetDetail.delete.others")}</li>
        </ul>
      </AlertDialog>
    </Card>
  );
}
