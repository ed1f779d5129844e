// Cash-flow commands: save (create or update the whole form) and delete a flow (money in or out,
// once or periodic). A flow may belong to an asset (the rent of a flat): the asset must exist, not
// be deleted and be of the same workspace (checked inside the transaction).
import { cashFlowShape } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, EntityOf, Patch } from "../clientdb";
import { assetMissing, atomically, isLiveAsset, must, recordOf, rowById } from "./batch";
import { formPatch } from "./formPatch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type CashFlowFields = EntityOf<"cashFlows">;

/**
 * Creates a cash flow (no `id`) or saves the whole form over an existing one (`id`: every field
 * absent from `fields` is cleared). Validated by the shared cash-flow schema (e.g. endDate
 * "validation.date.endBeforeStart"); a tied asset missing from the workspace is refused on "assetId".
 * `opened`, the fields the form started from: a field whose value the form did not change is left
 * out of the write, so it keeps what it holds now (an edit synced in from another device while the
 * form was open is not silently written back to the old value; formPatch.ts).
 */
export function saveCashFlow(
  db: ClientDb,
  workspaceId: string,
  fields: CashFlowFields,
  id?: string,
  opened?: Partial<CashFlowFields>,
): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    const found = id === undefined ? undefined : recordOf("cashFlows", await rowById(db, "cashFlows", id));
    if (id !== undefined && (!found || found.deleted)) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    const ws = found?.workspaceId ?? workspaceId;
    const patch = id === undefined ? undefined : formPatch(cashFlowShape, fields, opened);
    const assetId = patch === undefined ? fields.assetId : (patch.assetId as string | null | undefined);
    if (typeof assetId === "string" && assetId !== found?.fields.assetId) {
      if (!isLiveAsset(recordOf("assets", await rowById(db, "assets", assetId)), ws)) refuse([assetMissing()]);
    }
    if (id === undefined || patch === undefined) return { id: must(await db.create("cashFlows", ws, fields), refuse).id };
    must(await db.update("cashFlows", id, patch as Patch<"cashFlows">), refuse);
    return { id };
  });
}

/** Deletes a cash flow (a tombstone; `db.restore` brings it back). */
export function deleteCashFlow(db: ClientDb, id: string): Promise<CommandResult> {
  return atomically(db, async (refuse) => {
    const found = recordOf("cashFlows", await rowById(db, "cashFlows", id));
    if (!found || found.deleted) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    must(await db.delete("cashFlows", id), refuse);
    return {};
  });
}
