// Live queries of the asset screens over the device database (@patrimonio/clientdb), for the active
// workspace. Every hook answers `undefined` while LOADING (the device database opens after the first
// paint, then the live query answers) and `[]` or `null` for NONE, so a screen can tell a skeleton
// from an empty state.
import {
  useClientDb,
  useRecordById,
  useRecordsWhere,
  useWorkspaceConflicts,
  useWorkspaceRecords,
  type ConflictView,
  type SyncedRecord,
} from "@patrimonio/clientdb";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useMe, useWorkspaces } from "../api/queries";
import type { WorkspaceRole } from "../api/types";
import { useFormatters } from "../i18n/useFormatters";
import { useActiveWorkspace } from "../workspace/activeWorkspace";
import { namedAsset, type DisposalLike } from "./disposal";

export type AssetRec = SyncedRecord<"assets">;
export type StructureRec = SyncedRecord<"legalStructures">;
export type ValuationRec = SyncedRecord<"valuations">;
export type LiabilityRec = SyncedRecord<"liabilities">;
export type InstructionRec = SyncedRecord<"legacyInstructions">;

export interface AssetWorkspace {
  /** The active workspace's id; undefined while /me is loading. */
  workspaceId: string | undefined;
  role: WorkspaceRole | undefined;
  /** Owners and editors may change records; viewers see everything read-only. */
  canEdit: boolean;
  /** Why the screens are read-only (a text key, "assets.readOnly.viewer"), or null. */
  readOnlyReasonKey: string | null;
  /** Whether the device database is open (before, every record hook answers undefined). */
  dbReady: boolean;
}

/** Whether a role may change records (the server enforces the same). */
export function canEditRole(role: WorkspaceRole | undefined): boolean {
  return role === "owner" || role === "editor";
}

/** The active workspace (the one the top bar's switcher shows), the user's role in it and whether
 * they may edit. The list is GET /workspaces when it answered, else /me's copy (offline). */
export function useAssetWorkspace(): AssetWorkspace {
  const { data: me } = useMe();
  const { data: listed } = useWorkspaces(me !== undefined && me !== null);
  const workspaces = listed ?? me?.workspaces;
  const { active } = useActiveWorkspace(workspaces);
  const db = useClientDb();
  const role = active?.role;
  const canEdit = canEditRole(role);
  return {
    workspaceId: active?.id,
    role,
    canEdit,
    readOnlyReasonKey: role === "viewer" ? "assets.readOnly.viewer" : null,
    dbReady: db !== null,
  };
}

/** The live records of the active workspace; undefined while loading (see clientdb's useWorkspaceRecords). */
function useLiveList<C extends "assets" | "legalStructures">(
  collection: C,
): SyncedRecord<C>[] | undefined {
  const { workspaceId } = useAssetWorkspace();
  return useWorkspaceRecords(collection, workspaceId);
}

/** The assets of the active workspace (not deleted), in creation order. */
export function useAssets(): AssetRec[] | undefined {
  return useLiveList("assets");
}

/** One asset: null when this device has no such record (check `.deleted` for a deleted one). */
export function useAsset(id: string | undefined): AssetRec | null | undefined {
  return useRecordById("assets", id);
}

/** The legal structures of the active workspace (not deleted). */
export function useLegalStructures(): StructureRec[] | undefined {
  return useLiveList("legalStructures");
}

/** One legal structure: null when this device has no such record. */
export function useLegalStructure(id: string | undefined): StructureRec | null | undefined {
  return useRecordById("legalStructures", id);
}

function byDateDesc(a: ValuationRec, b: ValuationRec): number {
  return a.fields.date < b.fields.date ? 1 : a.fields.date > b.fields.date ? -1 : a.id < b.id ? 1 : -1;
}

/** The valuation history of an asset, newest first. */
export function useValuations(assetId: string | undefined): ValuationRec[] | undefined {
  const { workspaceId } = useAssetWorkspace();
  const rows = useRecordsWhere("valuations", workspaceId, "assetId", assetId);
  return useMemo(() => rows && [...rows].sort(byDateDesc), [rows]);
}

/** The liabilities tied to an asset (its associated debts). */
export function useAssetLiabilities(assetId: string | undefined): LiabilityRec[] | undefined {
  const { workspaceId } = useAssetWorkspace();
  return useRecordsWhere("liabilities", workspaceId, "assetId", assetId);
}

/** The legacy instructions about an asset. */
export function useAssetInstructions(assetId: string | undefined): InstructionRec[] | undefined {
  const { workspaceId } = useAssetWorkspace();
  return useRecordsWhere("legacyInstructions", workspaceId, "assetId", assetId);
}

/** The shown conflicts of one record (losing values the user can restore or dismiss). */
export function useRecordConflicts(recordId: string | undefined): ConflictView[] | undefined {
  const { workspaceId } = useAssetWorkspace();
  const rows = useWorkspaceConflicts(recordId === undefined ? undefined : workspaceId, recordId);
  return recordId === undefined ? [] : rows;
}

/** Each asset's name as another record names it (namedAsset: a sold one says how and when it left),
 * by id, in the reader's language. */
export function useAssetNames(assets: readonly { id: string; fields: { name: string; disposal?: DisposalLike | undefined } }[]): Map<string, string> {
  const { t } = useTranslation();
  const fmt = useFormatters();
  return useMemo(() => new Map(assets.map((a) => [a.id, namedAsset(a.fields, (k, o) => String(t(k as never, o as never)), fmt.date)])), [assets, t, fmt]);
}
