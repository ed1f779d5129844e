// The records the asset detail screen reads, live from the device database (undefined while
// loading). Thin wrappers so the screen reads one place.
import { useRecords, type SyncedRecord } from "@patrimonio/clientdb";
import { useMemo } from "react";
import { sortValuations } from "./detailModel";

function useOfAsset<C extends "valuations" | "liabilities" | "legacyInstructions">(
  collection: C,
  workspaceId: string | undefined,
  assetId: string,
): SyncedRecord<C>[] | undefined {
  const all = useRecords(collection, workspaceId);
  return useMemo(() => all?.filter((r) => (r.fields as { assetId?: string }).assetId === assetId), [all, assetId]);
}

/** The asset's valuations, oldest first. */
export function useAssetValuations(workspaceId: string | undefined, assetId: string) {
  const list = useOfAsset("valuations", workspaceId, assetId);
  return useMemo(() => (list ? sortValuations(list) : undefined), [list]);
}

export function useAssetDebts(workspaceId: string | undefined, assetId: string) {
  return useOfAsset("liabilities", workspaceId, assetId);
}

export function useAssetInstructionRecords(workspaceId: string | undefined, assetId: string) {
  return useOfAsset("legacyInstructions", workspaceId, assetId);
}

export function useStructures(workspaceId: string | undefined) {
  return useRecords("legalStructures", workspaceId);
}
