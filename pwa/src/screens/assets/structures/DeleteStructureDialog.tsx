// Deleting a legal structure (kit AlertDialog): says what happens to what it owns before it is done.
// The structures it owns become owned directly and the assets it holds are held directly (H1's
// deleteLegalStructure, one transaction): no asset or other structure is deleted.
import { deleteLegalStructure } from "@patrimonio/clientdb";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { translateKey } from "../../../forms/schemaForm";
import { AlertDialog } from "../../../ui/Dialog";
import styles from "./LegalStructuresTab.module.css";
import type { StructureForest } from "./structureModel";
import type { AssetRow, StructureRow, StructuresData } from "./useStructuresData";

interface DeleteStructureDialogProps {
  data: StructuresData;
  forest: StructureForest<StructureRow, AssetRow>;
  structure: StructureRow;
  onClose: () => void;
}

export function DeleteStructureDialog({ data, forest, structure, onClose }: DeleteStructureDialogProps) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const children = (forest.children.get(structure.id) ?? []).filter((c) => c.id !== structure.id);
  const assets = forest.assets.get(structure.id) ?? [];

  async function confirm() {
    if (!data.db) return;
    setBusy(true);
    setError(null);
    try {
      const result = await deleteLegalStructure(data.db, structure.id);
      if (result.ok) onClose();
      else setError(result.issues.map((issue) => translateKey(i18n, { key: issue.key, params: issue.params })).join(" "));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AlertDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("structures.deleteDialog.title", { name: structure.name })}
      description={t("structures.deleteDialog.description")}
      confirmLabel={t("structures.deleteDialog.confirm")}
      confirmLoadingLabel={t("structures.deleteDialog.deleting")}
      onConfirm={() => void confirm()}
      loading={busy}
      error={error}
      data-testid="structure-delete-dialog"
    >
      <ul className={styles.consequences}>
        <li>
          {children.length === 0
            ? t("structures.deleteDialog.noChildren")
            : t("structures.deleteDialog.children", { count: children.length, names: children.map((c) => c.name).join(", ") })}
        </li>
        <li>
          {assets.length === 0
            ? t("structures.deleteDialog.noAssets")
            : t("structures.deleteDialog.assets", { count: assets.length, names: assets.map((a) => a.name).join(", ") })}
        </li>
      </ul>
    </AlertDialog>
  );
}
