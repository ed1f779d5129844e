// Task commands (issue 13): a to-do about the person's wealth (title, notes, status, priority, due
// date, the asset it is about). Every write is validated by the shared schema's taskSchema (the
// server checks the same) and a linked asset must be a live asset of the task's workspace, checked
// inside the write's transaction (another tab or device may have deleted it meanwhile). Like every
// command, they write the device database and the outbox: they work offline and sync later.
import { taskSchema, validateWith, type Issue } from "@patrimonio/shared-schema";
import type { ClientDb, CommandResult, EntityOf, Patch } from "../clientdb";
import { assetMissing, atomically, isLiveAsset, must, recordOf, rowById } from "./batch";
import "../validation"; // the record schemas load with the commands (see loadValidation)

export type TaskFields = EntityOf<"tasks">;

const notFound: Issue = { path: "", key: "validation.notFound", params: {} };

/** Creates a task; refuses (nothing written) when the schema does or the linked asset is not a live
 * asset of the workspace. */
export function createTask(db: ClientDb, workspaceId: string, task: TaskFields): Promise<CommandResult<{ id: string }>> {
  return atomically(db, async (refuse) => {
    const checked = validateWith(taskSchema, task);
    if (!checked.ok) return refuse(checked.issues);
    if (task.assetId !== undefined) {
      if (!isLiveAsset(recordOf("assets", await rowById(db, "assets", task.assetId)), workspaceId)) refuse([assetMissing()]);
    }
    const { id } = must(await db.create("tasks", workspaceId, checked.value), refuse);
    return { id };
  });
}

/** Changes a task (null clears an optional field: notes, due date, priority, asset). */
export function updateTask(db: ClientDb, id: string, patch: Patch<"tasks">): Promise<CommandResult> {
  return atomically(db, async (refuse) => {
    const found = recordOf("tasks", await rowById(db, "tasks", id));
    if (!found || found.deleted) return refuse([notFound]);
    const next: Record<string, unknown> = { ...found.fields };
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (value === null) delete next[field];
      else next[field] = value;
    }
    const checked = validateWith(taskSchema, next);
    if (!checked.ok) return refuse(checked.issues);
    const assetId = patch.assetId;
    if (typeof assetId === "string" && assetId !== found.fields.assetId) {
      if (!isLiveAsset(recordOf("assets", await rowById(db, "assets", assetId)), found.workspaceId)) refuse([assetMissing()]);
    }
    must(await db.update("tasks", id, patch), refuse);
    return {};
  });
}

/** The quick status change of the list (to do, in progress, done). */
export function setTaskStatus(db: ClientDb, id: string, status: TaskFields["status"]): Promise<CommandResult> {
  return updateTask(db, id, { status });
}

/** Deletes a task (a tombstone, like every record). */
export function deleteTask(db: ClientDb, id: string): Promise<CommandResult> {
  return atomically(db, async (refuse) => {
    const found = recordOf("tasks", await rowById(db, "tasks", id));
    if (!found || found.deleted) return refuse([notFound]);
    must(await db.delete("tasks", id), refuse);
    return {};
  });
}
