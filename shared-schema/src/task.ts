// Task: a to-do about the person's wealth.
import * as z from "zod";
import { PRIORITIES, TASK_STATUSES } from "./enums";
import { date, doc, text, uuidv7 } from "./primitives";

export const taskShape = {
  title: doc(text({ min: 1, max: 140 }), "What to do."),
  notes: doc(text({ max: 2000 }), "Details.").optional(),
  status: doc(z.enum(TASK_STATUSES), "Progress."),
  dueDate: doc(date(), "Due date.").optional(),
  priority: doc(z.enum(PRIORITIES), "Priority.").optional(),
  assetId: doc(uuidv7(), "Asset it is about (id of an assets record).").optional(),
};

export const taskSchema = doc(z.strictObject(taskShape), "Task");
export type Task = z.infer<typeof taskSchema>;
