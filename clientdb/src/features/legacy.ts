// Legacy instruction commands: save (create or update) refusing an asset or beneficiary the workspace
// does not have (so an instruction never points at nothing), and delete.
import { legacyInstructionShape, type Issue } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, EntityOf, Patch } from "../clientdb";
import { assetMissing, atomically, isLiveAsset, must, recordOf, rowById } from "./batch";
import { formPatch } from "./formPatch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type InstructionFields = EntityOf<"legacyInstructions">;

const missing = (path: string): Issue => ({ path, key: "validation.notFound", params: {} });

/**
 * Creates a legacy instruction (no `id`) or saves the whole form over an existing one (`id`: every
 * field absent from `fields` is cleared, so an instruction can become general again). Without assetId
 * and beneficiaryId it is a general instruction. Refuses a target that is not a live record of the
 * workspace (`validation.asset.missing` on "assetId", `validation.notFound` on "beneficiaryId").
 * `opened`, the fields the form started from: only the fields changed since are written (formPatch.ts),
 * so an edit synced in from another device while the form was open is not silently reverted.
 */
export function saveLegacyInstruction(
  db: ClientDb,
  workspaceId: string,
  fields: InstructionFields,
  id?: string,
  opened?: Partial<InstructionFields>,
): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    let ws = workspaceId;
    if (id !== undefined) {
      const found = recordOf("legacyInstructions", await rowById(db, "legacyInstructions", id));
      if (!found || found.deleted) return refuse([missing("")]);
      ws = found.workspaceId;
    }
    // The targets written (all of a new one; of an edit, those it changed) must be live records.
    const written: Record<string, unknown> = id === undefined ? fields : formPatch(legacyInstructionShape, fields, opened);
    const issues: Issue[] = [];
    if (typeof written.assetId === "string") {
      if (!isLiveAsset(recordOf("assets", await rowById(db, "assets", written.assetId)), ws)) issues.push(assetMissing());
    }
    if (typeof written.beneficiaryId === "string") {
      const b = recordOf("beneficiaries", await rowById(db, "beneficiaries", written.beneficiaryId));
      if (!b || b.deleted || b.workspaceId !== ws) issues.push(missing("beneficiaryId"));
    }
    if (issues.length > 0) refuse(issues);
    if (id === undefined) return { id: must(await db.create("legacyInstructions", ws, fields), refuse).id };
    const patch = written;
    must(await db.update("legacyInstructions", id, patch as Patch<"legacyInstructions">), refuse);
    return { id };
  });
}

/** Deletes a legacy instruction (nothing points at one). */
export function deleteLegacyInstruction(db: ClientDb, id: string): Promise<CommandResult> {
  return db.delete("legacyInstructions", id);
}
