// The edit forms of one asset (options, ownership, financial figures, settings): react-hook-form
// whose resolver validates the WHOLE asset as it would be saved — the shown record with the form's
// changes — with the shared-schema asset schema, so the cross-field rules (the ownership sum, the
// category of the class, purchase before valuation) speak as the user types, with the same message
// keys the device database and the server use. Only the issues on the form's own fields are shown.
// The save writes only the fields the reader changed since the form opened (clientdb changedSince):
// a field left alone keeps whatever it holds now, so an edit another device made meanwhile (synced
// in while the form was open) is not silently reverted.
import { changedSince, updateAsset, validateRecord, type ClientDb, type Patch, type SyncedRecord } from "@patrimonio/clientdb";
import type { Issue } from "@patrimonio/shared-schema";
import { useMemo, useRef, useState } from "react";
import { get, useForm, type FieldError, type FieldErrors, type FieldValues, type Path, type Resolver, type UseFormReturn } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { encodeMessage, fieldErrorText } from "../../../forms/schemaForm";

type AssetPatch = Patch<"assets">;

/** Sets `value` at a dotted path ("otherOwners.1.percentage") inside nested objects. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node: Record<string, unknown> = target;
  parts.forEach((part, i) => {
    if (i === parts.length - 1) {
      if (node[part] === undefined) node[part] = value;
      return;
    }
    const next = node[part];
    if (typeof next !== "object" || next === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  });
}

/** The asset's fields with a patch applied (null removes a field), as the save would make it. */
export function mergePatch(fields: Record<string, unknown>, patch: AssetPatch): Record<string, unknown> {
  const next: Record<string, unknown> = { ...fields };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    if (v === null) delete next[k];
    else next[k] = v;
  }
  return next;
}

/** react-hook-form errors from issues on the form's fields; the other issues apart. */
export function issuesToErrors(issues: readonly Issue[], formFields: readonly string[]): { errors: FieldErrors; others: Issue[] } {
  const errors: Record<string, unknown> = {};
  const others: Issue[] = [];
  for (const issue of issues) {
    const top = issue.path.split(".")[0] ?? "";
    if (!formFields.includes(top)) {
      others.push(issue);
      continue;
    }
    setPath(errors, issue.path, { type: "schema", message: encodeMessage(issue.key, issue.params) } satisfies FieldError);
  }
  return { errors: errors as FieldErrors, others };
}

export interface AssetPatchFormOptions<T extends FieldValues> {
  asset: SyncedRecord<"assets">;
  defaultValues: T;
  /** The form's values as a patch of the asset (a cleared optional field: null). */
  toPatch: (values: T) => AssetPatch;
  /** Form fields that must not be left empty although the schema allows it (the app's rule: every
   * asset has a current value and its date; see add/catalogue.ts ALWAYS_REQUIRED). A stable array
   * (a module constant): the validation is rebuilt when it changes. */
  required?: readonly Path<T>[];
}

export type AssetPatchForm<T extends FieldValues> = UseFormReturn<T, unknown, AssetPatch> & {
  errorText: (name: Path<T>) => string | undefined;
  /** Issues on other fields of the asset that block the save (shown as the form's alert). */
  otherIssues: Issue[];
  /**
   * Validates and saves (updateAsset: one transaction) the fields the reader changed; calls onSaved
   * when saved, with whether anything was written (false: nothing changed, or the changed fields
   * already hold the form's values; nothing is sent).
   */
  save: (db: ClientDb, onSaved?: (written: boolean) => void) => (event?: React.BaseSyntheticEvent) => Promise<void>;
};

const NONE: readonly never[] = [];

/** An edit form of the asset; see the top of this file. */
export function useAssetPatchForm<T extends FieldValues>({ asset, defaultValues, toPatch, required = NONE }: AssetPatchFormOptions<T>): AssetPatchForm<T> {
  const { i18n } = useTranslation();
  const [otherIssues, setOtherIssues] = useState<Issue[]>([]);
  const formFields = Object.keys(defaultValues);
  const fields = asset.fields as Record<string, unknown>;
  // The form's values as it opened, as a patch: what "unchanged" means. A card that stays on screen
  // after a save (reset to what it saved) measures the next change from what it saved.
  const opened = useRef<AssetPatch | null>(null);
  opened.current ??= toPatch(defaultValues);
  const resolver = useMemo<Resolver<T, unknown, AssetPatch>>(
    () => (values) => {
      const patch = changedSince(toPatch(values), opened.current ?? undefined);
      const checked = validateRecord("assets", mergePatch(fields, patch));
      const { errors } = checked.ok ? { errors: {} as FieldErrors } : issuesToErrors(checked.issues, formFields);
      for (const name of required) {
        const v: unknown = get(values, name);
        if ((v === "" || v === undefined || v === null) && get(errors, name) === undefined) {
          setPath(errors as Record<string, unknown>, name, { type: "required", message: encodeMessage("validation.required", {}) } satisfies FieldError);
        }
      }
      // Issues only on fields the form does not show (a merge that broke another rule) do not block
      // the form's own validation; the save reports them.
      if (Object.keys(errors).length === 0) return { values: patch, errors: {} };
      return { values: {}, errors: errors as FieldErrors<T> };
    },
    // The shown record changes under the form when sync brings an edit: validate against it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [fields, toPatch, required],
  );
  const form = useForm<T, unknown, AssetPatch>({ defaultValues: defaultValues as never, resolver, mode: "onTouched", reValidateMode: "onChange" });
  const reset: UseFormReturn<T, unknown, AssetPatch>["reset"] = (values, options) => {
    if (values !== undefined && typeof values !== "function") opened.current = toPatch(values as T);
    form.reset(values, options);
  };
  return {
    ...form,
    reset,
    otherIssues,
    errorText: (name) => fieldErrorText(i18n, get(form.formState.errors as FieldErrors, name) as FieldError | undefined),
    save: (db, onSaved) =>
      form.handleSubmit(async (patch) => {
        setOtherIssues([]);
        if (!changesAnything(fields, patch)) {
          onSaved?.(false);
          return;
        }
        const result = await updateAsset(db, asset.id, patch);
        if (result.ok) {
          // What is stored now: the form as it opened (or last saved) with this patch. Not the
          // form's values now: one changed while the write was in flight is still a change.
          opened.current = { ...opened.current, ...patch };
          onSaved?.(true);
          return;
        }
        const { errors, others } = issuesToErrors(result.issues, formFields);
        let first = true;
        for (const [name, error] of Object.entries(flatten(errors))) {
          form.setError(name as Path<T>, error, { shouldFocus: first });
          first = false;
        }
        setOtherIssues(others);
      }),
  };
}

/** Whether applying the patch changes any stored field (null on an absent field changes nothing). */
export function changesAnything(fields: Record<string, unknown>, patch: AssetPatch): boolean {
  return Object.entries(patch).some(([k, v]) => {
    if (v === undefined) return false;
    if (v === null) return fields[k] !== undefined && fields[k] !== null;
    return canonical(fields[k]) !== canonical(v);
  });
}

/** JSON with object keys sorted, so two equal values compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  ) ?? "undefined";
}

/** Nested errors as dotted paths (for setError). */
function flatten(errors: Record<string, unknown>, prefix = ""): Record<string, FieldError> {
  const out: Record<string, FieldError> = {};
  for (const [k, v] of Object.entries(errors)) {
    if (typeof v !== "object" || v === null) continue;
    if ("message" in v && "type" in v) out[prefix + k] = v as FieldError;
    else Object.assign(out, flatten(v as Record<string, unknown>, `${prefix}${k}.`));
  }
  return out;
}

/** "" → null (clear the optional field); a value → itself. */
export function orNull<V>(value: V | ""): V | null {
  return value === "" ? null : value;
}

/** A select's "1".."5" → 1..5, "" → null; anything else stays text (the schema refuses it). */
export function intOrNull(value: string): number | string | null {
  if (value === "") return null;
  return /^-?\d+$/.test(value) ? Number(value) : value;
}
