// Liability commands: save (create or update the whole form) and delete a debt. The debt may be
// tied to an asset ("associated debt"): the asset must exist, not be deleted and be of the same
// workspace (checked inside the transaction, so a concurrent delete in another tab is seen).
import { liabilityShape } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, EntityOf, Patch } from "../clientdb";
import { assetMissing, atomically, isLiveAsset, must, recordOf, rowById } from "./batch";
import { formPatch } from "./formPatch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type LiabilityFields = EntityOf<"liabilities">;

/**
 * Creates a liability (no `id`) or saves the whole form over an existing one (`id`: every field
 * absent from `fields` is cleared). Validated by the shared liability schema (issues on the fields'
 * paths, e.g. endDate "validation.date.endBeforeStart"); a tied asset that does not exist in the
 * workspace is refused with ASSET_MISSING_KEY (batch.ts) on "assetId". Nothing is written when refused.
 * `opened`, the fields the form started from: only the fields changed since are written (formPatch.ts),
 * so an edit synced in from another device while the form was open is not silently reverted.
 */
export function saveLiability(
  db: ClientDb,
  workspaceId: string,
  fields: LiabilityFields,
  id?: string,
  opened?: Partial<LiabilityFields>,
): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    const found = id === undefined ? undefined : recordOf("liabilities", await rowById(db, "liabilities", id));
    if (id !== undefined && (!found || found.deleted)) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    const ws = found?.workspaceId ?? workspaceId;
    const patch = id === undefined ? undefined : formPatch(liabilityShape, fields, opened);
    const assetId = patch === undefined ? fields.assetId : (patch.assetId as string | null | undefined);
    if (typeof assetId === "string" && assetId !== found?.fields.assetId) {
      if (!isLiveAsset(recordOf("assets", await rowById(db, "assets", assetId)), ws)) refuse([assetMissing()]);
    }
    if (id === undefined || patch === undefined) return { id: must(await db.create("liabilities", ws, fields), refuse).id };
    must(await db.update("liabilities", id, patch as Patch<"liabilities">), refuse);
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
