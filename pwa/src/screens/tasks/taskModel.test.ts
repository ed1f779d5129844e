// The task list's logic: the URL's filters, overdue by the device's calendar, the order of open tasks
// and the folded done group, and the form's values.
import { describe, expect, test } from "vitest";
import { tasksSearchSchema } from "../../router/areaRoutes";
import {
  filterAssets,
  filterTasks,
  groupTasks,
  hasFilters,
  isOverdue,
  prepareTask,
  taskFormValues,
  taskPatch,
  type TaskLike,
} from "./taskModel";

const FLAT = "01938f2e-6c1a-7b3e-9c4d-5e6f70819203";
const CAR = "01938f2e-6c1a-7b3e-9c4d-5e6f70819204";
const TODAY = "2026-03-15";

function task(id: string, fields: Partial<TaskLike["fields"]> = {}): TaskLike {
  return { id, fields: { title: `Tarea ${id}`, status: "todo", ...fields } };
}

const TASKS: TaskLike[] = [
  task("a", { title: "Renovar el seguro", dueDate: "2026-03-14", priority: "high", assetId: CAR }), // overdue
  task("b", { title: "Revisar la hipoteca", dueDate: "2026-03-15", status: "in_progress", assetId: FLAT }), // due today
  task("c", { title: "Declarar el alquiler", dueDate: "2026-04-30", priority: "medium", assetId: FLAT }),
  task("d", { title: "Actualizar valoraciones", priority: "low" }), // no date
  task("e", { title: "Pagar el IBI", dueDate: "2026-01-10", status: "done", assetId: FLAT }), // done, past date: not overdue
  task("f", { title: "Archivar escrituras", status: "done" }),
  task("g", { title: "Ábaco", dueDate: "2026-03-14", priority: "low" }), // overdue, lower priority than "a"
];

const collator = new Intl.Collator("es", { numeric: true, sensitivity: "base" });
const ids = (list: readonly TaskLike[]) => list.map((t) => t.id);

describe("overdue", () => {
  test("due before today and not done; due today is not overdue yet; no date never is", () => {
    expect(TASKS.filter((t) => isOverdue(t, TODAY)).map((t) => t.id)).toEqual(["a", "g"]);
    expect(isOverdue(task("x", { dueDate: "2026-03-15" }), "2026-03-16")).toBe(true);
    expect(isOverdue(task("x", { dueDate: "2026-03-15", status: "done" }), "2026-03-16")).toBe(false);
  });
});

describe("filters", () => {
  test("each filter alone, and together", () => {
    expect(ids(filterTasks(TASKS, {}, TODAY))).toEqual(ids(TASKS));
    expect(ids(filterTasks(TASKS, { status: "done" }, TODAY))).toEqual(["e", "f"]);
    expect(ids(filterTasks(TASKS, { status: "in_progress" }, TODAY))).toEqual(["b"]);
    expect(ids(filterTasks(TASKS, { priority: "low" }, TODAY))).toEqual(["d", "g"]);
    expect(ids(filterTasks(TASKS, { asset: FLAT }, TODAY))).toEqual(["b", "c", "e"]);
    expect(ids(filterTasks(TASKS, { asset: "none" }, TODAY))).toEqual(["d", "f", "g"]);
    expect(ids(filterTasks(TASKS, { overdue: 1 }, TODAY))).toEqual(["a", "g"]);
    expect(ids(filterTasks(TASKS, { overdue: 1, priority: "high" }, TODAY))).toEqual(["a"]);
    expect(ids(filterTasks(TASKS, { asset: FLAT, status: "todo" }, TODAY))).toEqual(["c"]);
    expect(ids(filterTasks(TASKS, { overdue: 1, status: "done" }, TODAY))).toEqual([]);
  });

  test("hasFilters tells when any is on", () => {
    expect(hasFilters({})).toBe(false);
    expect(hasFilters({ overdue: 1 })).toBe(true);
    expect(hasFilters({ asset: "none" })).toBe(true);
  });

  test("the URL's filters: known values kept, anything else dropped (never an error)", () => {
    expect(tasksSearchSchema.parse({ status: "done", priority: "high", asset: FLAT, overdue: "1" })).toEqual({
      status: "done",
      priority: "high",
      asset: FLAT,
      overdue: 1,
    });
    expect(tasksSearchSchema.parse({ overdue: 1, asset: "none" })).toEqual({ overdue: 1, asset: "none" });
    expect(tasksSearchSchema.parse({ status: "later", priority: 3, asset: "not-an-id", overdue: "0" })).toEqual({});
    expect(tasksSearchSchema.parse({})).toEqual({});
  });
});

describe("groups", () => {
  test("open tasks by due date (overdue first, undated last), then priority, then title; done ones folded apart", () => {
    const groups = groupTasks(TASKS, TODAY, collator);
    expect(ids(groups.open)).toEqual(["a", "g", "b", "c", "d"]);
    // Done: the latest due date first, undated last.
    expect(ids(groups.done)).toEqual(["e", "f"]);
    expect(groups.overdue).toBe(2);
  });

  test("same date and priority: by title in the reader's collation (accents do not push a title to the end)", () => {
    const list = [task("1", { title: "Zona" }), task("2", { title: "Ábaco" }), task("3", { title: "banco" })];
    expect(groupTasks(list, TODAY, collator).open.map((t) => t.fields.title)).toEqual(["Ábaco", "banco", "Zona"]);
  });

  test("the filtered list groups what is left", () => {
    const groups = groupTasks(filterTasks(TASKS, { asset: FLAT }, TODAY), TODAY, collator);
    expect(ids(groups.open)).toEqual(["b", "c"]);
    expect(ids(groups.done)).toEqual(["e"]);
    expect(groups.overdue).toBe(0);
  });
});

describe("the form's values", () => {
  test("prepare trims and leaves out the optional fields left empty", () => {
    expect(prepareTask({ title: "  Renovar  ", notes: "  \n ", status: "todo", priority: "", dueDate: "", assetId: "" })).toEqual({
      title: "Renovar",
      notes: undefined,
      status: "todo",
      priority: undefined,
      dueDate: undefined,
      assetId: undefined,
    });
    expect(prepareTask({ title: "x", notes: " línea 1\n línea 2 ", status: "done", priority: "high", dueDate: "2026-01-01", assetId: FLAT })).toEqual({
      title: "x",
      notes: "línea 1\n línea 2",
      status: "done",
      priority: "high",
      dueDate: "2026-01-01",
      assetId: FLAT,
    });
  });

  test("an edit clears the optional fields left empty and keeps the rest", () => {
    expect(taskPatch({ title: "Nuevo", status: "in_progress", notes: undefined, priority: "low", dueDate: undefined, assetId: undefined })).toEqual({
      title: "Nuevo",
      status: "in_progress",
      notes: null,
      priority: "low",
      dueDate: null,
      assetId: null,
    });
    const t = TASKS[0]!;
    expect(taskFormValues(t)).toEqual({ title: "Renovar el seguro", notes: "", status: "todo", priority: "high", dueDate: "2026-03-14", assetId: CAR });
    expect(taskFormValues(undefined).status).toBe("todo");
  });
});

describe("the asset filter", () => {
  const sold = { kind: "sold" as const, date: "2025-06-01", amount: "1000" };
  const assets = [
    { id: "held", fields: {} },
    { id: "sold-with-task", fields: { disposal: sold } },
    { id: "sold-done-task", fields: { disposal: sold } },
    { id: "sold-alone", fields: { disposal: sold } },
  ];
  const tasks: TaskLike[] = [
    { id: "1", fields: { title: "Escriturar la venta", status: "todo", assetId: "sold-with-task" } },
    { id: "2", fields: { title: "Declarar la ganancia", status: "done", assetId: "sold-done-task" } },
    { id: "3", fields: { title: "Sin activo", status: "todo" } },
  ];

  test("held assets, and a sold one only while a task (open or done) is about it", () => {
    expect(filterAssets(assets, tasks).map((a) => a.id)).toEqual(["held", "sold-with-task", "sold-done-task"]);
    expect(filterAssets(assets, []).map((a) => a.id)).toEqual(["held"]);
  });

  test("the asset the address filters by stays offered, so the filter shows what it is set to", () => {
    expect(filterAssets(assets, [], "sold-alone").map((a) => a.id)).toEqual(["held", "sold-alone"]);
  });
});
