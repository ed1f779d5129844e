// The save of an edit form: it writes only the fields the reader changed. A form opens with the
// record as it was; meanwhile another device (or member) may change it and the edit syncs in. A save
// that wrote every field back would carry this device's current clocks as its base, so the merge
// would take the form's old values as knowingly superseding the other edit (sync/MERGE.md rules
// 1-4): it would be reverted silently, with no conflict. So a field whose value the form did not
// change is left out of the write and keeps whatever it holds now.
import type { JsonValue } from "../merge";
import { equalValues } from "../merge";

/** A value as it would be stored: undefined and null alike (absent), object keys holding undefined dropped. */
function stored(value: unknown): JsonValue {
  if (value === undefined || value === null) return null;
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

/** Whether two field values are the same: absent and null alike; arrays and objects by value
 * (an object's keys in any order). */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  return equalValues(stored(a), stored(b));
}

/** Every field of the shape with the form's value, null where the form has none (clears it). */
export function wholePatch(shape: Record<string, unknown>, fields: object): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) patch[key] = (fields as Record<string, unknown>)[key] ?? null;
  return patch;
}

/**
 * The part of a form's patch the reader changed: the fields whose value differs from the one the
 * form opened with (`opened`, the record's fields or the form's values as a patch, prepared the way
 * a submit prepares them). A field the reader cleared is kept (null). Without `opened` (a caller
 * that did not say what the form started from), the patch is returned whole.
 */
export function changedSince<P extends object>(patch: P, opened: object | undefined): Partial<P> {
  if (opened === undefined) return patch;
  const was = opened as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (!sameFieldValue(value, was[key])) out[key] = value;
  }
  return out as Partial<P>;
}

/** The write of a whole-record edit form: `wholePatch` of its fields, less what it did not change
 * since it opened (`changedSince`). */
export function formPatch(shape: Record<string, unknown>, fields: object, opened: object | undefined): Record<string, unknown> {
  return changedSince(wholePatch(shape, fields), opened);
}
