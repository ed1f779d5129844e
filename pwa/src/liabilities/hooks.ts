// Live queries of the liabilities and flows screens over the device database (@patrimonio/clientdb)
// for the active workspace (the asset area's useAssetWorkspace: role, canEdit, read-only reason).
// Every hook answers `undefined` while LOADING and `[]` for NONE.
import { useRecordsWhere, useWorkspaceRecords, type SyncedRecord } from "@patrimonio/clientdb";
import type { EnumListName } from "@patrimonio/shared-schema";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { useAssetWorkspace } from "../assets/hooks";
import { SCHEMA_NAMESPACE } from "../i18n/i18n";

export type LiabilityRec = SyncedRecord<"liabilities">;
export type CashFlowRec = SyncedRecord<"cashFlows">;

/** The liabilities of the active workspace (not deleted). */
export function useLiabilities(): LiabilityRec[] | undefined {
  const { workspaceId } = useAssetWorkspace();
  return useWorkspaceRecords("liabilities", workspaceId);
}

/** The cash flows of the active workspace (not deleted). */
export function useCashFlows(): CashFlowRec[] | undefined {
  const { workspaceId } = useAssetWorkspace();
  return useWorkspaceRecords("cashFlows", workspaceId);
}

/** The cash flows tied to one asset. */
export function useAssetCashFlows(workspaceId: string | undefined, assetId: string | undefined): CashFlowRec[] | undefined {
  return useRecordsWhere("cashFlows", workspaceId, "assetId", assetId);
}

/** The label of an enumeration value in the reader's language (the shared schema's labels.*). */
export function useEnumLabel(): (list: EnumListName, code: string) => string {
  const { t } = useTranslation();
  return useCallback(
    (list: EnumListName, code: string) =>
      (t as unknown as (key: string, options: Record<string, unknown>) => string)(`labels.${list}.${code}`, { ns: SCHEMA_NAMESPACE, defaultValue: code }),
    [t],
  );
}
