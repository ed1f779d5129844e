// The task list's logic, pure (tested in Node): the filters of the URL (status, priority, asset,
// overdue), what "overdue" means (a due date before today on the device's calendar, and not done),
// the order of open tasks and the folded group of done ones.
import type { PRIORITIES, TASK_STATUSES } from "@patrimonio/shared-schema";
import { isDisposed, type DisposalLike } from "../../assets/disposal";

export type TaskStatus = (typeof TASK_STATUSES)[number];
export type TaskPriority = (typeof PRIORITIES)[number];

/** What the list needs of a task record. */
export interface TaskLike {
  id: string;
  fields: {
    title: string;
    status: TaskStatus;
    priority?: TaskPriority | undefined;
    dueDate?: string | undefined;
    assetId?: string | undefined;
    notes?: string | undefined;
  };
}

/** The filters of /tasks (parsed from the URL by the route: pwa/src/router/areaRoutes.tsx). `asset`
 * is an asset's id, or "none" for the tasks tied to no asset. */
export interface TaskFilters {
  status?: TaskStatus | undefined;
  priority?: TaskPriority | undefined;
  asset?: string | undefined;
  overdue?: 1 | undefined;
}

/** Whether any filter is on. */
export function hasFilters(filters: TaskFilters): boolean {
  return filters.status !== undefined || filters.priority !== undefined || filters.asset !== undefined || filters.overdue === 1;
}

/** Overdue: not done and due before today (a task due today is not overdue yet). */
export function isOverdue(task: TaskLike, today: string): boolean {
  const due = task.fields.dueDate;
  return task.fields.status !== "done" && due !== undefined && due < today;
}

/** The tasks that pass every filter that is on. */
export function filterTasks<T extends TaskLike>(tasks: readonly T[], filters: TaskFilters, today: string): T[] {
  return tasks.filter((task) => {
    const f = task.fields;
    if (filters.status !== undefined && f.status !== filters.status) return false;
    if (filters.priority !== undefined && f.priority !== filters.priority) return false;
    if (filters.asset === "none" && f.assetId !== undefined) return false;
    if (filters.asset !== undefined && filters.asset !== "none" && f.assetId !== filters.asset) return false;
    if (filters.overdue === 1 && !isOverdue(task, today)) return false;
    return true;
  });
}

/** The assets the asset filter offers: the held ones, and a sold or disposed one only while some
 * task (open or done) is still about it, so those tasks stay findable, or the address already
 * filters by it (`selected`), so the filter shows what it is set to. */
export function filterAssets<A extends { id: string; fields: { disposal?: DisposalLike | undefined } }>(
  assets: readonly A[],
  tasks: readonly TaskLike[],
  selected?: string,
): A[] {
  const named = new Set<string>();
  for (const task of tasks) if (task.fields.assetId !== undefined) named.add(task.fields.assetId);
  return assets.filter((a) => !isDisposed(a.fields) || named.has(a.id) || a.id === selected);
}

const PRIORITY_RANK: Record<TaskPriority, number> = { high: 0, medium: 1, low: 2 };

function rank(priority: TaskPriority | undefined): number {
  return priority === undefined ? 3 : PRIORITY_RANK[priority];
}

/** Open tasks: the soonest due first (overdue ones are the soonest), those without a date last;
 * then the higher priority; then by title in the reader's collation. */
export function compareOpen(collator: Intl.Collator): (a: TaskLike, b: TaskLike) => number {
  return (a, b) => {
    const da = a.fields.dueDate;
    const db = b.fields.dueDate;
    if (da !== db) {
      if (da === undefined) return 1;
      if (db === undefined) return -1;
      return da < db ? -1 : 1;
    }
    const pr = rank(a.fields.priority) - rank(b.fields.priority);
    if (pr !== 0) return pr;
    return collator.compare(a.fields.title, b.fields.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
}

/** Done tasks: the latest due date first (undated last), then by title. */
export function compareDone(collator: Intl.Collator): (a: TaskLike, b: TaskLike) => number {
  return (a, b) => {
    const da = a.fields.dueDate;
    const db = b.fields.dueDate;
    if (da !== db) {
      if (da === undefined) return 1;
      if (db === undefined) return -1;
      return da > db ? -1 : 1;
    }
    return collator.compare(a.fields.title, b.fields.title) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
}

export interface TaskGroups<T extends TaskLike> {
  /** To do and in progress, in order. */
  open: T[];
  /** Done: kept, shown folded under "Done (n)". */
  done: T[];
  /** How many of the open ones are overdue. */
  overdue: number;
}

/** Splits (already filtered) tasks into the open list and the folded done group, each in order. */
export function groupTasks<T extends TaskLike>(tasks: readonly T[], today: string, collator: Intl.Collator): TaskGroups<T> {
  const open: T[] = [];
  const done: T[] = [];
  let overdue = 0;
  for (const task of tasks) {
    if (task.fields.status === "done") done.push(task);
    else {
      open.push(task);
      if (isOverdue(task, today)) overdue++;
    }
  }
  open.sort(compareOpen(collator));
  done.sort(compareDone(collator));
  return { open, done, overdue };
}

/** The form's values: every field a string ("" = empty). */
export interface TaskFormValues {
  title: string;
  notes: string;
  status: string;
  priority: string;
  dueDate: string;
  assetId: string;
}

export const EMPTY_TASK: TaskFormValues = { title: "", notes: "", status: "todo", priority: "", dueDate: "", assetId: "" };

export const OPTIONAL_TASK_FIELDS = ["notes", "priority", "dueDate", "assetId"] as const;

/** Trims the texts and leaves out the optional fields left empty (the schema wants them absent). */
export function prepareTask(values: TaskFormValues): TaskFormValues {
  const out: Record<string, string | undefined> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = key === "notes" ? raw.replace(/^\s+|\s+$/g, "") : raw.trim();
    out[key] = (OPTIONAL_TASK_FIELDS as readonly string[]).includes(key) && value === "" ? undefined : value;
  }
  return out as unknown as TaskFormValues;
}

/** The form's values of a task (for editing). */
export function taskFormValues(task: TaskLike | undefined): TaskFormValues {
  if (!task) return { ...EMPTY_TASK };
  const f = task.fields;
  return {
    title: f.title,
    notes: f.notes ?? "",
    status: f.status,
    priority: f.priority ?? "",
    dueDate: f.dueDate ?? "",
    assetId: f.assetId ?? "",
  };
}

/** The edit of a task: the optional fields left empty cleared (null). Given the values the form
 * opened with (`opened`, prepared the same way), only the fields the reader changed are in it: a field
 * left alone keeps whatever it holds now, so an edit another device made while the form was open (a
 * new due date, a status) is not silently written back to the old value. */
export function taskPatch(
  values: Partial<Record<keyof TaskFormValues, string | undefined>>,
  opened?: Partial<Record<keyof TaskFormValues, string | undefined>>,
): Record<string, string | null> {
  const patch: Record<string, string | null> = {};
  const norm = (value: string | undefined) => (value === undefined || value === "" ? null : value);
  for (const key of ["title", "status", ...OPTIONAL_TASK_FIELDS] as const) {
    const value = norm(values[key]);
    if (opened !== undefined && norm(opened[key]) === value) continue;
    patch[key] = value;
  }
  return patch;
}
