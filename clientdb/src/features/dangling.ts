// References left pointing at a deleted (or missing) asset or legal structure. deleteAsset and
// deleteLegalStructure leave none, but two devices can still make them offline: one deletes an
// asset while the other adds a valuation to it or moves it into a structure the first deleted.
// findDanglingRefs lists them (read-only: screens can show a problem); repairDanglingRefs applies the
// same decisions as the delete commands, in one transaction.
import type { CollectionName } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, Patch } from "../clientdb";
import type { RecordRow } from "../db";
import { useClientDb } from "../context";
import { useLive } from "../live";
import { atomically, liveRows, must, recordsOf } from "./batch";
import { current, type Tagged } from "./hooks";

export interface DanglingRef {
  collection: CollectionName;
  recordId: string;
  /** "assetId", "legalStructureId", "parentStructureId", or "allocations" (a beneficiary's entry). */
  field: string;
  /** The id it points at (deleted or absent on this device). */
  target: string;
  /** What the repair does: delete the record (a valuation of a gone asset), untie the field, or
   * drop the allocation entry. */
  repair: "delete" | "untie" | "dropAllocation";
}

const UNTIE_ASSET = ["liabilities", "legacyInstructions", "cashFlows", "tasks", "logins"] as const;

function ids(rows: RecordRow[]): Set<string> {
  return new Set(rows.map((r) => r.id));
}

export function scanDangling(
  live: { assets: Set<string>; structures: Set<string> },
  rows: Record<"valuations" | (typeof UNTIE_ASSET)[number] | "beneficiaries" | "assets" | "legalStructures", RecordRow[]>,
): DanglingRef[] {
  const out: DanglingRef[] = [];
  for (const v of recordsOf("valuations", rows.valuations)) {
    if (!live.assets.has(v.fields.assetId)) out.push({ collection: "valuations", recordId: v.id, field: "assetId", target: v.fields.assetId, repair: "delete" });
  }
  for (const c of UNTIE_ASSET) {
    for (const r of recordsOf(c, rows[c])) {
      const target = (r.fields as { assetId?: string }).assetId;
      if (target !== undefined && !live.assets.has(target)) out.push({ collection: c, recordId: r.id, field: "assetId", target, repair: "untie" });
    }
  }
  for (const b of recordsOf("beneficiaries", rows.beneficiaries)) {
    for (const a of b.fields.allocations ?? []) {
      if (a.assetId !== undefined && !live.assets.has(a.assetId)) {
        out.push({ collection: "beneficiaries", recordId: b.id, field: "allocations", target: a.assetId, repair: "dropAllocation" });
      }
    }
  }
  for (const a of recordsOf("assets", rows.assets)) {
    const target = a.fields.legalStructureId;
    if (target !== undefined && !live.structures.has(target)) out.push({ collection: "assets", recordId: a.id, field: "legalStructureId", target, repair: "untie" });
  }
  for (const s of recordsOf("legalStructures", rows.legalStructures)) {
    const target = s.fields.parentStructureId;
    if (target !== undefined && !live.structures.has(target)) {
      out.push({ collection: "legalStructures", recordId: s.id, field: "parentStructureId", target, repair: "untie" });
    }
  }
  return out;
}

export async function readDanglingInputs(db: ClientDb, workspaceId: string) {
  // Each read is awaited here directly (see batch.ts: no async helper in between inside a transaction).
  const assets = await liveRows(db, "assets", workspaceId);
  const legalStructures = await liveRows(db, "legalStructures", workspaceId);
  const valuations = await liveRows(db, "valuations", workspaceId);
  const liabilities = await liveRows(db, "liabilities", workspaceId);
  const legacyInstructions = await liveRows(db, "legacyInstructions", workspaceId);
  const cashFlows = await liveRows(db, "cashFlows", workspaceId);
  const tasks = await liveRows(db, "tasks", workspaceId);
  const logins = await liveRows(db, "logins", workspaceId);
  const beneficiaries = await liveRows(db, "beneficiaries", workspaceId);
  return { assets, legalStructures, valuations, liabilities, legacyInstructions, cashFlows, tasks, logins, beneficiaries };
}

/** The references of a workspace that point at a deleted or missing asset or structure. */
export async function findDanglingRefs(db: ClientDb, workspaceId: string): Promise<DanglingRef[]> {
  const rows = await readDanglingInputs(db, workspaceId);
  return scanDangling({ assets: ids(rows.assets), structures: ids(rows.legalStructures) }, rows);
}

/** Repairs every dangling reference of a workspace in one transaction (one sync batch). */
export function repairDanglingRefs(db: ClientDb, workspaceId: string): Promise<CommandResult<{ repaired: DanglingRef[] }>> {
  return atomically(db, async (refuse) => {
    const assets = await liveRows(db, "assets", workspaceId);
    const legalStructures = await liveRows(db, "legalStructures", workspaceId);
    const valuations = await liveRows(db, "valuations", workspaceId);
    const liabilities = await liveRows(db, "liabilities", workspaceId);
    const legacyInstructions = await liveRows(db, "legacyInstructions", workspaceId);
    const cashFlows = await liveRows(db, "cashFlows", workspaceId);
    const tasks = await liveRows(db, "tasks", workspaceId);
    const logins = await liveRows(db, "logins", workspaceId);
    const beneficiaries = await liveRows(db, "beneficiaries", workspaceId);
    const rows = { assets, legalStructures, valuations, liabilities, legacyInstructions, cashFlows, tasks, logins, beneficiaries };
    const live = { assets: ids(assets), structures: ids(legalStructures) };
    const found = scanDangling(live, rows);
    const droppedFor = new Set<string>();
    for (const ref of found) {
      const where = `${ref.collection}.${ref.recordId}`;
      if (ref.repair === "delete") {
        must(await db.delete(ref.collection, ref.recordId), refuse, where);
      } else if (ref.repair === "untie") {
        must(await db.update(ref.collection, ref.recordId, { [ref.field]: null } as Patch<typeof ref.collection>), refuse, where);
      } else if (!droppedFor.has(ref.recordId)) {
        droppedFor.add(ref.recordId);
        const b = recordsOf("beneficiaries", beneficiaries).find((x) => x.id === ref.recordId)!;
        const kept = (b.fields.allocations ?? []).filter((a) => a.assetId === undefined || live.assets.has(a.assetId));
        must(await db.update("beneficiaries", b.id, { allocations: kept.length > 0 ? kept : null }), refuse, where);
      }
    }
    return { repaired: found };
  });
}

/** References of a workspace left pointing at a deleted or missing asset or structure (see
 * dangling.ts), live; undefined while loading. Show them as a problem; repairDanglingRefs fixes them. */
export function useDanglingRefs(workspaceId: string | undefined): DanglingRef[] | undefined {
  const handle = useClientDb();
  const key = workspaceId ?? "";
  const result = useLive(handle, async (): Promise<Tagged<DanglingRef[]> | null> => {
    if (!handle || workspaceId === undefined) return null;
    const rows = await readDanglingInputs(handle, workspaceId);
    return { handle, key, value: scanDangling({ assets: new Set(rows.assets.map((r) => r.id)), structures: new Set(rows.legalStructures.map((r) => r.id)) }, rows) };
  }, [handle, key]);
  return current(result, handle, key);
}
