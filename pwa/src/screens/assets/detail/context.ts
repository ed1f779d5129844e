// What every section of the asset detail screen reads: the device database, the shown asset, the
// caller's role in the asset's workspace (viewers edit nothing) and the asset's shown conflicts.
import type { ClientDb, ConflictView, SyncedRecord } from "@patrimonio/clientdb";
import { createContext, useContext } from "react";
import type { WorkspaceRole } from "../../../api/types";

export interface AssetDetail {
  db: ClientDb;
  asset: SyncedRecord<"assets">;
  role: WorkspaceRole;
  /** Owners and editors; viewers see everything read-only. */
  canEdit: boolean;
  conflicts: readonly ConflictView[];
}

export const AssetDetailContext = createContext<AssetDetail | null>(null);

export function useAssetDetail(): AssetDetail {
  const value = useContext(AssetDetailContext);
  if (!value) throw new Error("useAssetDetail outside the asset detail screen");
  return value;
}
