// Editing the kind's own fields of an asset (area, year of construction, brand, ISIN, …) with the
// add flow's form of its kind (add/catalogue.ts): the form starts from the asset as it is, is
// validated by the same schema as the add flow (add/assetForm.ts: the shared asset schema with the
// kind's required fields required and the cross-field rules), and the save writes only the kind's
// fields and the tax location that changed (a class group keeps its fields the form does not show).
import type { Asset } from "@patrimonio/shared-schema";
import { COMMON, emptyValues, kindFields, type AssetFormValues, type AssetInput } from "../add/assetForm";
import { CATALOGUE, kindForCategory, type FieldSpec, type FormKind } from "../add/catalogue";

const GROUPS = new Set(["vehicle", "animal", "collectible", "investment", "derivative", "crypto"]);

/** The form of an asset: its category's kind (admins' categories: their class's broadest form). */
export function kindOfAsset(asset: Pick<Asset, "assetClass" | "category">): FormKind {
  return kindForCategory(asset.assetClass, asset.category);
}

/** The fields every kind's dialog shows before the kind's own: the description (required for
 * "other") and the holding type, which the add flow asks for and nothing else edits. */
export const COMMON_EDITED: readonly FieldSpec[] = [
  COMMON.identity.find((s) => s.name === "description")!,
  { name: "holdingType", type: "choice", list: "holdingType" },
];

/** The fields the dialog shows: the kind's own section (the tax location is shown apart). */
export function kindDetailFields(kind: FormKind): readonly FieldSpec[] {
  return CATALOGUE[kind].details;
}

function getPath(values: unknown, path: string): unknown {
  let node = values;
  for (const part of path.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let node = target;
  for (const part of parts.slice(0, -1)) {
    if (typeof node[part] !== "object" || node[part] === null) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts[parts.length - 1]!] = value;
}

/** A stored value as the form holds it: numbers as text (years, mileage), the rest as stored. */
function asFormValue(value: unknown): unknown {
  return typeof value === "number" ? String(value) : value;
}

/** The form's values for an asset: the kind's empty form filled with what the asset holds. */
export function formValuesOf(asset: Asset, kind: FormKind): AssetFormValues {
  const values = emptyValues(kind, { currency: asset.currency });
  for (const spec of kindFields(kind)) {
    const v = getPath(asset, spec.name);
    if (v !== undefined && v !== null) setPath(values, spec.name, asFormValue(v));
    if (spec.unitName) {
      const unit = getPath(asset, spec.unitName);
      if (typeof unit === "string") setPath(values, spec.unitName, unit);
    }
  }
  // What the add form also validates: the ownership, the structure, the tax location.
  values.valuationDate = asset.valuationDate ?? "";
  values.participation = asset.participation;
  values.otherOwners = (asset.otherOwners ?? []).map((o) => ({ name: o.name ?? "", percentage: o.percentage ?? "" }));
  values.legalStructureId = asset.legalStructureId ?? "";
  values.holdingType = asset.holdingType ?? "";
  values.description = asset.description ?? "";
  const tax = asset.taxLocation;
  values.taxLocation = {
    noTaxRegistration: tax?.noTaxRegistration === true,
    country: tax?.country ?? "",
    state: tax?.state ?? "",
    city: tax?.city ?? "",
  };
  return values;
}

/** The top-level record fields the dialog writes: the common ones, the heads of the kind's fields, and taxLocation. */
export function editedHeads(kind: FormKind): string[] {
  return [...new Set([...COMMON_EDITED.map((s) => s.name), ...kindDetailFields(kind).map((s) => s.name.split(".")[0]!), "taxLocation"])];
}

/** JSON with sorted keys: two values are the same whatever their key order. */
function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}

/**
 * The patch that saves the dialog: for each edited head the reader changed since the dialog opened
 * (`opened`, the asset as it was then; without it, every head), the validated input's value (null:
 * cleared), only where it differs from the asset now. A head the reader left alone keeps what it
 * holds now (another device may have changed it meanwhile). A class group (vehicle, crypto, …) is
 * merged field by field: it keeps the fields the kind's form does not show, and those of its shown
 * fields the reader left alone, as they are now.
 */
export function kindPatch(asset: Asset, input: AssetInput, kind: FormKind, opened?: Asset): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const current = asset as unknown as Record<string, unknown>;
  const was = (opened ?? asset) as unknown as Record<string, unknown>;
  for (const head of editedHeads(kind)) {
    let next = input[head];
    if (GROUPS.has(head)) {
      const shown = new Set(kindDetailFields(kind).filter((s) => s.name.startsWith(`${head}.`)).map((s) => s.name.split(".")[1]!));
      const typed = (next as Record<string, unknown> | undefined) ?? {};
      const before = (was[head] as Record<string, unknown> | undefined) ?? {};
      const merged: Record<string, unknown> = { ...((current[head] as Record<string, unknown> | undefined) ?? {}) };
      for (const k of new Set([...shown, ...Object.keys(typed)])) {
        if (opened !== undefined && stable(typed[k]) === stable(before[k])) continue; // left alone
        if (typed[k] === undefined) delete merged[k];
        else merged[k] = typed[k];
      }
      next = Object.keys(merged).length > 0 ? merged : undefined;
    } else if (opened !== undefined && stable(next) === stable(was[head])) continue; // left alone
    if (stable(next) === stable(current[head])) continue;
    patch[head] = next === undefined ? null : next;
  }
  return patch;
}
