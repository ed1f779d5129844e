// Asset commands that write several records at once (one transaction, one sync batch): an asset
// with its first valuation and associated debts; deleting an asset without leaving anything pointing
// at it; a dated valuation that also moves the asset's current value.
import type { Issue } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, EntityOf, Patch, SyncedRecord } from "../clientdb";
import { atomically, liveRows, must, recordOf, recordsOf, rowById } from "./batch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type AssetFields = EntityOf<"assets">;
type ValuationFields = EntityOf<"valuations">;
type LiabilityFields = EntityOf<"liabilities">;

/** A valuation given with a new asset (its currency defaults to the asset's). */
export type NewValuation = Omit<ValuationFields, "assetId" | "currency" | "source"> &
  Partial<Pick<ValuationFields, "currency" | "source">>;

/** An associated debt given with a new asset (its currency defaults to the asset's). */
export type NewDebt = Omit<LiabilityFields, "assetId" | "currency"> & Partial<Pick<LiabilityFields, "currency">>;

export interface CreateAssetOptions {
  /** The first entry of the valuation history. Without it, an asset with currentValue and
   * valuationDate gets one made of those (source "manual"), unless `recordValuation` is false. */
  firstValuation?: NewValuation;
  recordValuation?: boolean;
  /** Associated debts (liabilities tied to the asset). */
  debts?: NewDebt[];
}

// Inside a Dexie transaction, only await the ClientDb's own reads and commands directly: an extra
// async helper between them loses the transaction's zone (PrematureCommitError). So the helpers
// here are synchronous and the reads are awaited in the commands themselves.
function isLiveStructure(s: SyncedRecord<"legalStructures"> | undefined, workspaceId: string): boolean {
  return s !== undefined && !s.deleted && s.workspaceId === workspaceId;
}

const structureMissing: Issue = { path: "legalStructureId", key: "validation.asset.structureMissing", params: {} };

/**
 * Creates an asset with its first valuation and its associated debts, in one transaction. Issue
 * paths: the asset's own ("name"), "valuation.<field>", "debts.<i>.<field>". Nothing is written when
 * any of them is refused. A firstValuation newer than the asset's valuationDate (or without one on
 * the asset) also becomes the asset's currentValue and valuationDate.
 */
export function createAsset(
  db: ClientDb,
  workspaceId: string,
  asset: AssetFields,
  options: CreateAssetOptions = {},
): Promise<CommandResult<{ id: string; valuationId?: string; liabilityIds: string[] }>> {
  return atomically(db, async (refuse) => {
    let fields: AssetFields = { ...asset };
    const first: NewValuation | undefined =
      options.firstValuation ??
      (options.recordValuation !== false && asset.currentValue !== undefined && asset.valuationDate !== undefined
        ? { date: asset.valuationDate, value: asset.currentValue }
        : undefined);
    if (first && (fields.valuationDate === undefined || first.date >= fields.valuationDate)) {
      fields = { ...fields, currentValue: first.value, valuationDate: first.date };
    }
    if (fields.legalStructureId !== undefined && !isLiveStructure(recordOf("legalStructures", await rowById(db, "legalStructures", fields.legalStructureId)), workspaceId)) {
      refuse([structureMissing]);
    }
    const { id } = must(await db.create("assets", workspaceId, fields), refuse);
    let valuationId: string | undefined;
    if (first) {
      const v: ValuationFields = { ...first, source: first.source ?? "manual", currency: first.currency ?? asset.currency, assetId: id };
      valuationId = must(await db.create("valuations", workspaceId, v), refuse, "valuation").id;
    }
    const liabilityIds: string[] = [];
    for (const [i, debt] of (options.debts ?? []).entries()) {
      const l: LiabilityFields = { ...debt, currency: debt.currency ?? asset.currency, assetId: id };
      liabilityIds.push(must(await db.create("liabilities", workspaceId, l), refuse, `debts.${i}`).id);
    }
    return valuationId === undefined ? { id, liabilityIds } : { id, valuationId, liabilityIds };
  });
}

/** Updates an asset (null clears an optional field); refuses a legal structure that does not exist. */
export function updateAsset(db: ClientDb, id: string, patch: Patch<"assets">): Promise<CommandResult> {
  return atomically(db, async (refuse) => {
    const found = recordOf("assets", await rowById(db, "assets", id));
    if (!found) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    const sid = patch.legalStructureId;
    if (typeof sid === "string" && sid !== found.fields.legalStructureId && !isLiveStructure(recordOf("legalStructures", await rowById(db, "legalStructures", sid)), found.workspaceId)) {
      refuse([structureMissing]);
    }
    must(await db.update("assets", id, patch), refuse);
    return {};
  });
}

/**
 * Adds a dated valuation to an asset's history. When it is the newest (or the asset has no
 * valuation date), the asset's currentValue and valuationDate follow it. Issues of the asset update
 * come back under "asset." (e.g. a valuation dated before the purchase date).
 */
export function addValuation(
  db: ClientDb,
  assetId: string,
  valuation: NewValuation,
): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    const asset = recordOf("assets", await rowById(db, "assets", assetId));
    if (!asset || asset.deleted) return refuse([{ path: "assetId", key: "validation.notFound", params: {} }]);
    const v: ValuationFields = { ...valuation, source: valuation.source ?? "manual", currency: valuation.currency ?? asset.fields.currency, assetId };
    const { id } = must(await db.create("valuations", asset.workspaceId, v), refuse);
    const current = asset.fields.valuationDate;
    if (current === undefined || valuation.date >= current) {
      must(await db.update("assets", assetId, { currentValue: valuation.value, valuationDate: valuation.date }), refuse, "asset");
    }
    return { id };
  });
}

/** What deleteAsset did to the records that pointed at the asset. */
export interface DeleteAssetResult {
  /** Valuations of the asset: deleted with it. */
  valuations: number;
  /** Liabilities tied to it: kept (still owed), untied. */
  liabilities: number;
  /** Legacy instructions about it: kept, untied (they become general instructions). */
  instructions: number;
  /** Cash flows, tasks and logins about it: kept, untied. */
  cashFlows: number;
  tasks: number;
  logins: number;
  /** Beneficiaries' allocations of that asset: those allocation entries removed. */
  allocations: number;
}

const UNTIED = ["liabilities", "legacyInstructions", "cashFlows", "tasks", "logins"] as const;

/**
 * Deletes an asset, and in the same transaction: its valuations (deleted: they are its history);
 * liabilities tied to it are kept (the debt is still owed) with `assetId` cleared; legacy
 * instructions, cash flows, tasks and logins about it are kept with `assetId` cleared (the person's
 * words and data are not lost); each beneficiary loses only the allocation entry of this asset.
 * So nothing is left pointing at the deleted asset and nothing else is lost. A tombstone: the asset
 * could be restored by `db.restore`, but the untied records are not tied again.
 */
export function deleteAsset(db: ClientDb, id: string): Promise<CommandResult<DeleteAssetResult>> {
  return atomically(db, async (refuse) => {
    const asset = recordOf("assets", await rowById(db, "assets", id));
    if (!asset) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    const ws = asset.workspaceId;
    let valuations = 0;
    for (const v of recordsOf("valuations", await liveRows(db, "valuations", ws))) {
      if (v.fields.assetId !== id) continue;
      must(await db.delete("valuations", v.id), refuse, `valuations.${v.id}`);
      valuations++;
    }
    const untied: Record<(typeof UNTIED)[number], number> = { liabilities: 0, legacyInstructions: 0, cashFlows: 0, tasks: 0, logins: 0 };
    for (const collection of UNTIED) {
      for (const r of recordsOf(collection, await liveRows(db, collection, ws))) {
        if ((r.fields as { assetId?: string }).assetId !== id) continue;
        must(await db.update(collection, r.id, { assetId: null } as Patch<typeof collection>), refuse, `${collection}.${r.id}`);
        untied[collection]++;
      }
    }
    let allocations = 0;
    for (const b of recordsOf("beneficiaries", await liveRows(db, "beneficiaries", ws))) {
      const list = b.fields.allocations ?? [];
      const kept = list.filter((a) => a.assetId !== id);
      if (kept.length === list.length) continue;
      allocations += list.length - kept.length;
      must(await db.update("beneficiaries", b.id, { allocations: kept.length > 0 ? kept : null }), refuse, `beneficiaries.${b.id}`);
    }
    must(await db.delete("assets", id), refuse);
    return {
      valuations,
      liabilities: untied.liabilities,
      instructions: untied.legacyInstructions,
      cashFlows: untied.cashFlows,
      tasks: untied.tasks,
      logins: untied.logins,
      allocations,
    };
  });
}
