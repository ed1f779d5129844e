// Legal structure commands: save (create or update) and re-parent refusing a structure that would
// own itself, and delete without leaving children or assets pointing at a deleted structure.
import { legalStructureShape, type Issue } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, EntityOf, Patch, SyncedRecord } from "../clientdb";
import { atomically, liveRows, must, recordOf, recordsOf, rowById } from "./batch";
import { formPatch } from "./formPatch";
import { wouldCreateCycle } from "./structureGraph";
import "../validation"; // the record schemas load with the commands (see loadValidation)

type StructureFields = EntityOf<"legalStructures">;

export const CYCLE_KEY = "validation.legalStructure.cycle";
export const PARENT_MISSING_KEY = "validation.legalStructure.parentMissing";

const issue = (key: string): Issue => ({ path: "parentStructureId", key, params: {} });

/** The refusal of a parent, or null: missing, deleted or of another workspace, or a parent that
 * makes `structureId` own itself. Synchronous on purpose: inside a Dexie transaction the reads are
 * awaited in the commands themselves (an async helper in between loses the transaction). */
function parentIssue(
  workspaceId: string,
  structureId: string | undefined,
  parentId: string,
  parent: SyncedRecord<"legalStructures"> | undefined,
  all: SyncedRecord<"legalStructures">[] | undefined,
): Issue | null {
  if (structureId !== undefined && parentId === structureId) return issue(CYCLE_KEY);
  if (!parent || parent.deleted || parent.workspaceId !== workspaceId) return issue(PARENT_MISSING_KEY);
  if (structureId === undefined || all === undefined) return null; // a new structure is nobody's parent yet
  const links = all.map((s) => ({ id: s.id, parentStructureId: s.fields.parentStructureId }));
  return wouldCreateCycle(links, structureId, parentId) ? issue(CYCLE_KEY) : null;
}

/**
 * Creates a legal structure (no `id`) or saves the whole form over an existing one (`id`: every
 * field absent from `fields` is cleared). Refuses a parent that would make a cycle
 * (`validation.legalStructure.cycle` on parentStructureId) or that does not exist
 * (`validation.legalStructure.parentMissing`).
 * `opened`, the fields the form started from: only the fields changed since are written (formPatch.ts),
 * so an edit synced in from another device while the form was open is not silently reverted.
 */
export function saveLegalStructure(
  db: ClientDb,
  workspaceId: string,
  fields: StructureFields,
  id?: string,
  opened?: Partial<StructureFields>,
): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    if (id === undefined) {
      const parentId = fields.parentStructureId;
      if (parentId !== undefined) {
        const bad = parentIssue(workspaceId, undefined, parentId, recordOf("legalStructures", await rowById(db, "legalStructures", parentId)), undefined);
        if (bad) refuse([bad]);
      }
      return { id: must(await db.create("legalStructures", workspaceId, fields), refuse).id };
    }
    const found = recordOf("legalStructures", await rowById(db, "legalStructures", id));
    if (!found || found.deleted) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    const patch = formPatch(legalStructureShape, fields, opened);
    if (typeof patch.parentStructureId === "string" && patch.parentStructureId !== found.fields.parentStructureId) {
      const parentId = patch.parentStructureId;
      const bad = parentIssue(found.workspaceId, id, parentId, recordOf("legalStructures", await rowById(db, "legalStructures", parentId)), recordsOf("legalStructures", await liveRows(db, "legalStructures", found.workspaceId)));
      if (bad) refuse([bad]);
    }
    must(await db.update("legalStructures", id, patch as Patch<"legalStructures">), refuse);
    return { id };
  });
}

/** Moves a structure under another one (null: top level); refuses a cycle or a missing parent. */
export function setStructureParent(db: ClientDb, id: string, parentId: string | null): Promise<CommandResult> {
  return atomically(db, async (refuse) => {
    const found = recordOf("legalStructures", await rowById(db, "legalStructures", id));
    if (!found || found.deleted) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    if (parentId !== null) {
      const bad = parentIssue(found.workspaceId, id, parentId, recordOf("legalStructures", await rowById(db, "legalStructures", parentId)), recordsOf("legalStructures", await liveRows(db, "legalStructures", found.workspaceId)));
      if (bad) refuse([bad]);
    }
    must(await db.update("legalStructures", id, { parentStructureId: parentId }), refuse);
    return {};
  });
}

/**
 * Deletes a legal structure. Its child structures become top-level (parent cleared, their own
 * ownership percentage kept) and the assets it held are held directly (legalStructureId cleared):
 * nothing else is deleted and nothing is left pointing at the deleted structure. One transaction.
 */
export function deleteLegalStructure(db: ClientDb, id: string): Promise<CommandResult<{ children: number; assets: number }>> {
  return atomically(db, async (refuse) => {
    const found = recordOf("legalStructures", await rowById(db, "legalStructures", id));
    if (!found) return refuse([{ path: "", key: "validation.notFound", params: {} }]);
    let children = 0;
    for (const s of recordsOf("legalStructures", await liveRows(db, "legalStructures", found.workspaceId))) {
      if (s.id === id || s.fields.parentStructureId !== id) continue;
      must(await db.update("legalStructures", s.id, { parentStructureId: null }), refuse, `legalStructures.${s.id}`);
      children++;
    }
    let assets = 0;
    for (const a of recordsOf("assets", await liveRows(db, "assets", found.workspaceId))) {
      if (a.fields.legalStructureId !== id) continue;
      must(await db.update("assets", a.id, { legalStructureId: null }), refuse, `assets.${a.id}`);
      assets++;
    }
    must(await db.delete("legalStructures", id), refuse);
    return { children, assets };
  });
}
