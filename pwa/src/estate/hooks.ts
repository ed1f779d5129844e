// Live data of the beneficiaries area over the device database (works offline, syncs), for the active
// workspace. Every list is undefined while LOADING and [] for NONE.
import { useWorkspaceRecords, type SyncedRecord } from "@patrimonio/clientdb";
import { useMemo } from "react";
import { useAssets, useAssetWorkspace, useLegalStructures, type AssetRec, type StructureRec } from "../assets/hooks";
import { lookThrough, structuresMap } from "../assets/lookThrough";
import type { EstateAsset } from "./readiness";

export type BeneficiaryRec = SyncedRecord<"beneficiaries">;
export type InstructionRec = SyncedRecord<"legacyInstructions">;
export type LiabilityRec = SyncedRecord<"liabilities">;

export interface EstateRecords {
  assets: AssetRec[] | undefined;
  structures: StructureRec[] | undefined;
  beneficiaries: BeneficiaryRec[] | undefined;
  instructions: InstructionRec[] | undefined;
  liabilities: LiabilityRec[] | undefined;
}

export function useEstateRecords(): EstateRecords {
  const { workspaceId } = useAssetWorkspace();
  const assets = useAssets();
  const structures = useLegalStructures();
  const beneficiaries = useWorkspaceRecords("beneficiaries", workspaceId);
  const instructions = useWorkspaceRecords("legacyInstructions", workspaceId);
  const liabilities = useWorkspaceRecords("liabilities", workspaceId);
  return { assets, structures, beneficiaries, instructions, liabilities };
}

/** The assets as readiness sees them: the person's look-through value at its valuation date (today
 * when the asset has none). */
export function toEstateAssets(assets: readonly AssetRec[], structures: readonly StructureRec[], today: string): EstateAsset[] {
  const byId = structuresMap(structures);
  return assets.map((a) => ({
    id: a.id,
    name: a.fields.name,
    currency: a.fields.currency,
    value: lookThrough(a.fields, byId).value,
    date: a.fields.valuationDate ?? today,
  }));
}

export function useEstateAssets(assets: AssetRec[] | undefined, structures: StructureRec[] | undefined, today: string): EstateAsset[] | undefined {
  return useMemo(() => (assets && structures ? toEstateAssets(assets, structures, today) : undefined), [assets, structures, today]);
}
