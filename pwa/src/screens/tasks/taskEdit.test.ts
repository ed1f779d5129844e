// The task form's edit against a real device database: it writes only what the reader changed, so
// an edit another device made while the form was open (synced in meanwhile) is not silently undone.
import "fake-indexeddb/auto";
import { ClientDb, createTask, updateTask, type Patch } from "@patrimonio/clientdb";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, test } from "vitest";
import { prepareTask, taskFormValues, taskPatch } from "./taskModel";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";

describe("editing a task", () => {
  test("a field the reader left alone keeps another device's newer value", async () => {
    const db = await ClientDb.open({ name: "task-edit", indexedDB: new IDBFactory(), IDBKeyRange });
    const created = await createTask(db, WS, { title: "Renovar el seguro", status: "todo", dueDate: "2026-03-14", priority: "high" });
    if (!created.ok) throw new Error(JSON.stringify(created));
    const id = created.id;
    const task = await db.get("tasks", id);
    // The form opens with the task as it is now…
    const opened = prepareTask(taskFormValues(task!));
    // …meanwhile another device moves the due date and starts the task (their edit syncs in)…
    expect(await updateTask(db, id, { dueDate: "2026-04-30", status: "in_progress" })).toEqual({ ok: true });
    // …and the reader saves a new title, touching nothing else.
    const submitted = prepareTask({ ...taskFormValues(task!), title: "Renovar el seguro del coche" });
    expect(await updateTask(db, id, taskPatch(submitted, opened) as Patch<"tasks">)).toEqual({ ok: true });
    expect((await db.get("tasks", id))?.fields).toEqual({ title: "Renovar el seguro del coche", status: "in_progress", dueDate: "2026-04-30", priority: "high" });

    // What the reader did change is written, a cleared field too.
    const again = prepareTask(taskFormValues((await db.get("tasks", id))!));
    expect(taskPatch(prepareTask({ ...taskFormValues((await db.get("tasks", id))!), priority: "", status: "done" }), again)).toEqual({ status: "done", priority: null });
    db.close();
  });
});
