// What every section of the asset detail screen reads: the device database, the shown asset, the
// caller's role in the asset's workspace (viewers edit nothing) and the asset's shown conflicts.
import type { ClientDb, ConflictView, SyncedRecord } from "@patrimonio/clientdb";
import { createContext, useContext } from "react";
import type { WorkspaceRole } from "../../../api/types";
import { isDisposed } from "../../../assets/disposal";

export interface AssetDetail {
  db: ClientDb;
  asset: SyncedRecord<"assets">;
  role: WorkspaceRole;
  /** The asset's own fields and history may be edited: owners and editors, while it is held (a sold
   * or disposed asset is read-only until its sale is undone). Viewers see everything read-only. */
  canEdit: boolean;
  /** Owners and editors, held or not: record or undo a sale, delete the asset, edit its debts. */
  canManage: boolean;
  /** Sold, given away or otherwise gone (asset.disposal). */
  disposed: boolean;
  conflicts: readonly ConflictView[];
}

/** The screen's context for a role: see AssetDetail. */
export function assetDetailFor(db: ClientDb, asset: SyncedRecord<"assets">, role: WorkspaceRole, conflicts: readonly ConflictView[]): AssetDetail {
  const canManage = role !== "viewer";
  const disposed = isDisposed(asset.fields);
  return { db, asset, role, canEdit: canManage && !disposed, canManage, disposed, conflicts };
}

export const AssetDetailContext = createContext<AssetDetail | null>(null);

export function useAssetDetail(): AssetDetail {
  const value = useContext(AssetDetailContext);
  if (!value) throw new Error("useAssetDetail outside the asset detail screen");
  return value;
}
