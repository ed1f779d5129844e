// Beneficiary commands: save (create or update) refusing allocations that, with every other
// beneficiary's, would give more than 100 % of an asset (or of the whole estate), or that name an
// asset this workspace does not have; delete without leaving instructions pointing at the deleted
// beneficiary. The rule spans records, so it is checked here on the device (the shared schema checks
// one record); merged data from two devices can still exceed 100 %: the screens show it.
import { beneficiaryShape, toHundredths, type Issue } from "@patrimonio/shared-schema";
import { ESTATE, SUM_EXCEEDS_KEY, allocatedHundredths } from "./allocations";
import type { ClientDb, CommandResult, EntityOf, Patch } from "../clientdb";
import { assetMissing, atomically, liveRows, must, recordsOf, rowById, recordOf } from "./batch";
import { formPatch } from "./formPatch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type BeneficiaryFields = EntityOf<"beneficiaries">;

/** The issues of a beneficiary's allocations against the others' (and the workspace's assets). */
function allocationIssues(
  fields: BeneficiaryFields,
  others: Map<string, number>,
  assets: ReadonlySet<string>,
): Issue[] {
  const issues: Issue[] = [];
  (fields.allocations ?? []).forEach((a, i) => {
    if (a.assetId !== undefined && !assets.has(a.assetId)) {
      issues.push(assetMissing(`allocations.${i}.assetId`));
      return;
    }
    const total = (others.get(a.assetId ?? ESTATE) ?? 0) + toHundredths(a.percentage);
    if (total > 10000) issues.push({ path: `allocations.${i}.percentage`, key: SUM_EXCEEDS_KEY, params: {} });
  });
  return issues;
}

/**
 * Creates a beneficiary (no `id`) or saves the whole form over an existing one (`id`: every field
 * absent from `fields` is cleared). Refused, with nothing written, when an allocation makes the
 * allocations of all beneficiaries of that asset (or of the whole estate) exceed 100 %
 * (`validation.percent.sumExceeds` on "allocations.<i>.percentage") or names an asset that is not a
 * live asset of the workspace (`validation.asset.missing` on "allocations.<i>.assetId").
 * `opened`, the fields the form started from: only the fields changed since are written (formPatch.ts;
 * the allocations compared by value, and checked only when written), so an edit synced in from
 * another device while the form was open is not silently reverted.
 */
export function saveBeneficiary(
  db: ClientDb,
  workspaceId: string,
  fields: BeneficiaryFields,
  id?: string,
  opened?: Partial<BeneficiaryFields>,
): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    let ws = workspaceId;
    if (id !== undefined) {
      const found = recordOf("beneficiaries", await rowById(db, "beneficiaries", id));
      if (!found || found.deleted) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
      ws = found.workspaceId;
    }
    const patch = id === undefined ? undefined : formPatch(beneficiaryShape, fields, opened);
    if ((fields.allocations ?? []).length > 0 && (patch === undefined || "allocations" in patch)) {
      const others = allocatedHundredths(recordsOf("beneficiaries", await liveRows(db, "beneficiaries", ws)), id);
      const assets = new Set(recordsOf("assets", await liveRows(db, "assets", ws)).map((a) => a.id));
      const issues = allocationIssues(fields, others, assets);
      if (issues.length > 0) refuse(issues);
    }
    if (id === undefined || patch === undefined) return { id: must(await db.create("beneficiaries", ws, fields), refuse).id };
    must(await db.update("beneficiaries", id, patch as Patch<"beneficiaries">), refuse);
    return { id };
  });
}

/**
 * Deletes a beneficiary; the legacy instructions about them are kept with `beneficiaryId` cleared (the
 * person's words are not lost: they become general, or stay about their asset). One transaction.
 */
export function deleteBeneficiary(db: ClientDb, id: string): Promise<CommandResult<{ instructions: number }>> {
  return atomically(db, async (refuse) => {
    const found = recordOf("beneficiaries", await rowById(db, "beneficiaries", id));
    if (!found) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    let instructions = 0;
    for (const r of recordsOf("legacyInstructions", await liveRows(db, "legacyInstructions", found.workspaceId))) {
      if (r.fields.beneficiaryId !== id) continue;
      must(await db.update("legacyInstructions", r.id, { beneficiaryId: null }), refuse, `legacyInstructions.${r.id}`);
      instructions++;
    }
    must(await db.delete("beneficiaries", id), refuse);
    return { instructions };
  });
}
