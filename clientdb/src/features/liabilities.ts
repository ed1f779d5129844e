// Liability commands: save (create or update the whole form) and delete a debt. The debt may be
// tied to an asset ("associated debt"): the asset must exist, not be deleted and be of the same
// workspace (checked inside the transaction, so a concurrent delete in another tab is seen).
import { liabilityShape } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, EntityOf, Patch } from "../clientdb";
import { assetMissing, atomically, isLiveAsset, must, recordOf, rowById } from "./batch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type LiabilityFields = EntityOf<"liabilities">;

/** Every field of the shape: the value, or null to clear it (a whole-form save). */
export function wholePatch<C extends "liabilities" | "cashFlows">(shape: Record<string, unknown>, fields: EntityOf<C>): Patch<C> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) patch[key] = (fields as Record<string, unknown>)[key] ?? null;
  return patch as Patch<C>;
}

/**
 * Creates a liability (no `id`) or saves the whole form over an existing one (`id`: every field
 * absent from `fields` is cleared). Validated by the shared liability schema (issues on the fields'
 * paths, e.g. endDate "validation.date.endBeforeStart"); a tied asset that does not exist in the
 * workspace is refused with ASSET_MISSING_KEY (batch.ts) on "assetId". Nothing is written when refused.
 */
export function saveLiability(db: ClientDb, workspaceId: string, fields: LiabilityFields, id?: string): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    const found = id === undefined ? undefined : recordOf("liabilities", await rowById(db, "liabilities", id));
    if (id !== undefined && (!found || found.deleted)) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    const ws = found?.workspaceId ?? workspaceId;
    if (fields.assetId !== undefined && fields.assetId !== found?.fields.assetId) {
      if (!isLiveAsset(recordOf("assets", await rowById(db, "assets", fields.assetId)), ws)) refuse([assetMissing()]);
    }
    if (id === undefined) return { id: must(await db.create("liabilities", ws, fields), refuse).id };
    must(await db.update("liabilities", id, wholePatch<"liabilities">(liabilityShape, fields)), refuse);
    return { id };
  });
}

/** Deletes a liability (a tombstone; `db.restore` brings it back). */
export function deleteLiability(db: ClientDb, id: string): Promise<CommandResult> {
  return atomically(db, async (refuse) => {
    const found = recordOf("liabilities", await rowById(db, "liabilities", id));
    if (!found || found.deleted) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    must(await db.delete("liabilities", id), refuse);
    return {};
  });
}
