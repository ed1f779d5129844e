// The add-asset form's values and schema. The form holds what was typed (text, decimal strings,
// "" for empty); `toAssetInput` turns it into the asset record (empty fields left out, years and
// levels as whole numbers, class groups only when used) and the schema that validates it is the
// shared schema's asset (assetShape + assetRules: the same rules the server applies) with the kind's
// required fields made required, plus the optional first associated debt. No validation is written
// here: every message is a shared-schema key.
import { assetRules, assetShape, money, text, toHundredths, type AssetClass } from "@patrimonio/shared-schema";
import * as z from "zod";
import { CATALOGUE, requiredFields, type FieldSpec, type FormKind } from "./catalogue";
import { localToday } from "../../../time/localToday";

/** What the form holds: strings (decimals as exact strings), booleans, nested like the record. */
export type AssetFormValues = Record<string, unknown>;

export interface OwnerRow {
  name: string;
  percentage: string;
}

/** The common fields every kind asks for, in the form's order (the kind's own come between). */
export const COMMON = {
  identity: [
    { name: "name", type: "text", max: 140 },
    { name: "customCategory", type: "text", max: 60 },
    { name: "description", type: "textarea", max: 256 },
  ],
  value: [
    { name: "currentValue", type: "money" },
    { name: "valuationDate", type: "date" },
    { name: "purchaseValue", type: "money" },
    { name: "purchaseDate", type: "date" },
    { name: "taxValue", type: "money" },
  ],
  options: [
    { name: "risk", type: "integer", hint: true },
    { name: "liquidity", type: "integer", hint: true },
  ],
} as const satisfies Record<string, readonly FieldSpec[]>;

/** The debt that may be recorded with the asset (one; more are added from the asset's page). */
export const debtSchema = z.strictObject({
  amount: money(),
  creditorName: text({ min: 1, max: 140 }).optional(),
});

/** Cross-field rules run once every field is valid (shared-schema's rules.ts does the same). */
const whenValid = { when: (payload: z.core.ParsePayload) => payload.issues.length === 0 };

const GROUPS = ["vehicle", "animal", "collectible", "investment", "derivative", "crypto"] as const;

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

/** The fields of a kind's form: the common ones and the kind's own. */
export function kindFields(kind: FormKind): FieldSpec[] {
  return [...COMMON.identity, ...CATALOGUE[kind].details, ...COMMON.value, ...COMMON.options];
}

/** The starting values of a kind's form: everything empty, wholly owned, valued today. */
export function emptyValues(kind: FormKind, options: { currency?: string; legalStructureId?: string; now?: Date } = {}): AssetFormValues {
  const values: AssetFormValues = {
    currency: options.currency ?? "EUR",
    participation: "100",
    otherOwners: [] as OwnerRow[],
    legalStructureId: options.legalStructureId ?? "",
    holdingType: "",
    taxLocation: { noTaxRegistration: false, country: "", state: "", city: "" },
    debt: { amount: "", creditorName: "" },
  };
  for (const field of kindFields(kind)) {
    setPath(values, field.name, field.type === "boolean" ? false : "");
    if (field.type === "measure" && field.unitName) setPath(values, field.unitName, field.defaultUnit ?? "");
  }
  setPath(values, "valuationDate", localToday(options.now));
  return values;
}

function clean(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** A whole number typed as text; anything else is left as typed (the schema names the problem). */
function whole(value: unknown): unknown {
  const v = clean(value);
  return typeof v === "string" && /^-?[0-9]{1,15}$/.test(v) ? Number(v) : v;
}

/** Removes undefined members (the schema is strict and the record keeps no empty fields). */
function compact<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export interface AssetTarget {
  kind: FormKind;
  assetClass: AssetClass;
  category: string;
}

/** What the schema validates: the asset record's fields and the optional debt. */
export type AssetInput = Record<string, unknown> & { debt?: { amount?: unknown; creditorName?: unknown } };

/** The form's values as the asset record (+ debt) the schema validates and createAsset stores. */
export function toAssetInput(values: AssetFormValues, target: AssetTarget): AssetInput {
  const { kind, assetClass, category } = target;
  const required = new Set(requiredFields(kind, category));
  const out: Record<string, unknown> = { assetClass, category };
  const groups: Record<string, Record<string, unknown>> = {};

  for (const field of kindFields(kind)) {
    if (field.name === "customCategory" && category !== "custom") continue;
    if (field.name === "taxValue" && !CATALOGUE[kind].taxValue) continue;
    const raw = getPath(values, field.name);
    let value: unknown;
    switch (field.type) {
      case "year":
      case "integer":
        value = whole(raw);
        break;
      case "boolean":
        value = raw === true;
        break;
      case "isin":
        value = typeof clean(raw) === "string" ? (clean(raw) as string).toUpperCase() : undefined;
        break;
      case "measure": {
        const amount = field.unitName?.startsWith("vehicle.") ? whole(raw) : clean(raw);
        const unit = clean(getPath(values, field.unitName!));
        value = amount === undefined ? undefined : compact({ value: amount, unit });
        // area.value -> area; vehicle.mileage.value -> vehicle.mileage
        const measurePath = field.name.slice(0, -".value".length);
        assign(measurePath, value);
        continue;
      }
      default:
        value = clean(raw);
    }
    assign(field.name, value);
  }

  function assign(path: string, value: unknown) {
    const [head, ...rest] = path.split(".");
    if ((GROUPS as readonly string[]).includes(head!)) {
      if (value === undefined) return;
      groups[head!] ??= {};
      setPath(groups[head!]!, rest.join("."), value);
    } else if (value !== undefined) {
      setPath(out, path, value);
    }
  }

  // A class group is stored when something in it was given, or when the kind requires part of it
  // (then its missing fields are reported where they are). A lone "no" (not insured) counts only
  // with something else.
  for (const group of GROUPS) {
    const fields = groups[group];
    const groupRequired = [...required].some((p) => p.startsWith(`${group}.`));
    const meaningful = fields && Object.values(fields).some((v) => v !== false);
    if (meaningful || groupRequired) out[group] = fields ?? {};
  }

  // Ownership.
  out.participation = clean(values.participation) ?? "";
  const owners = ((values.otherOwners as OwnerRow[] | undefined) ?? [])
    .map((o) => compact({ name: clean(o.name), percentage: clean(o.percentage) }))
    .filter((o) => o.name !== undefined || o.percentage !== undefined);
  if (owners.length > 0) out.otherOwners = owners;
  const structure = clean(values.legalStructureId);
  if (structure !== undefined) out.legalStructureId = structure;
  const holding = clean(values.holdingType);
  if (holding !== undefined) out.holdingType = holding;
  out.currency = clean(values.currency) ?? "";

  // Tax location: "no tax registration" alone, or the place; nothing when nothing was given
  // (except where the kind requires it: then the missing country is reported).
  const tax = (values.taxLocation ?? {}) as Record<string, unknown>;
  if (tax.noTaxRegistration === true) {
    out.taxLocation = { noTaxRegistration: true };
  } else {
    const place = compact({ country: clean(tax.country), state: clean(tax.state), city: clean(tax.city) });
    if (Object.keys(place).length > 0 || required.has("taxLocation.country")) out.taxLocation = place;
  }

  const debt = (values.debt ?? {}) as Record<string, unknown>;
  const amount = clean(debt.amount);
  const creditorName = clean(debt.creditorName);
  const input: AssetInput = out;
  if (amount !== undefined || creditorName !== undefined) input.debt = compact({ amount, creditorName });
  return input;
}

/** The schema at `path` made required (the optional wrapper removed), nested objects rebuilt. */
function requirePath(shape: Record<string, z.ZodType>, parts: string[]): Record<string, z.ZodType> {
  const [head, ...rest] = parts;
  const current = shape[head!];
  if (!current) return shape;
  const inner = current instanceof z.ZodOptional ? (current.unwrap() as z.ZodType) : current;
  if (rest.length === 0) return { ...shape, [head!]: inner };
  if (!(inner instanceof z.ZodObject)) return shape;
  return { ...shape, [head!]: z.strictObject(requirePath(inner.shape as Record<string, z.ZodType>, rest)) };
}

/**
 * The schema of a kind's form: the shared asset schema with the kind's required fields required
 * (their message is the schema's `validation.required`), the sum-of-shares and other cross-field
 * rules of assetRules, and the optional debt.
 */
export function assetFormSchema(kind: FormKind, category: string) {
  let shape: Record<string, z.ZodType> = { ...assetShape };
  const required = requiredFields(kind, category);
  for (const path of required) {
    if (path === "taxLocation.country") continue; // required unless "no tax registration": below
    shape = requirePath(shape, path.split("."));
  }
  const needsTaxPlace = required.includes("taxLocation.country");
  return z
    .strictObject({ ...shape, debt: debtSchema.optional() })
    .superRefine(
      (value, ctx) => {
        // Runs even while other fields are wrong, so every missing field shows at once.
        const tax = (value as { taxLocation?: { noTaxRegistration?: boolean; country?: string } }).taxLocation;
        if (needsTaxPlace && tax?.noTaxRegistration !== true && !tax?.country) ctx.addIssue({ code: "custom", path: ["taxLocation", "country"], params: { key: "validation.required" } });
      },
      { when: () => true },
    )
    .superRefine((value, ctx) => {
      const { debt: _debt, ...asset } = value as Record<string, unknown>;
      assetRules(asset as Parameters<typeof assetRules>[0], ctx);
    }, whenValid);
}

export type AssetFormSchema = ReturnType<typeof assetFormSchema>;

/** The live ownership indicator: the shared schema's message key for the sum of the shares typed
 * so far (exceeds, or how much is left), or null at exactly 100 or while a share is not a number. */
export function ownershipMessage(participation: unknown, owners: readonly OwnerRow[]): { key: string; params: Record<string, number> } | null {
  const shares = [participation, ...owners.map((o) => o.percentage)].map((s) => (typeof s === "string" ? s.trim() : ""));
  let total = 0;
  for (const share of shares) {
    if (share === "") continue;
    if (!/^[0-9]{1,3}(\.[0-9]{1,2})?$/.test(share)) return null;
    total += toHundredths(share);
  }
  if (total > 10000) return { key: "validation.percent.sumExceeds", params: {} };
  if (total < 10000) return { key: "validation.percent.remaining", params: { remaining: (10000 - total) / 100 } };
  return null;
}
