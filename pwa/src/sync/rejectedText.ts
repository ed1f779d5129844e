// What the refused-changes panel (RejectedChanges.tsx) says about a change the sync server refused:
// the record's name, the label of a field, where the record is shown, and the server's reason in
// the reader's language. Pure, except for the i18next instance handed in.
import type { CollectionName, WireIssue } from "@patrimonio/shared-schema";
import type { i18n as I18n } from "i18next";
import { formatNumber } from "../i18n/format";
import { activeLanguage, SCHEMA_NAMESPACE } from "../i18n/i18n";

type Fields = Record<string, unknown>;
type T = (key: string, options?: Record<string, unknown>) => string;

/** The lazy locale section holding a collection's field labels, the labels' prefix in it, and
 * the schema's field names the screens label under another name (the asset picker is "asset"). */
const FIELD_LABELS: Partial<Record<CollectionName, { section: string; prefix: string; renamed?: Record<string, string> }>> = {
  assets: { section: "assetDetail", prefix: "assetDetail.fields" },
  valuations: { section: "assetDetail", prefix: "assetDetail.valuations", renamed: { currency: "../fields.currency" } },
  legalStructures: { section: "structures", prefix: "structures.fields", renamed: { parentStructureId: "parent" } },
  liabilities: { section: "liabilities", prefix: "liabilities.fields" },
  cashFlows: { section: "flows", prefix: "flows.fields" },
  tasks: { section: "tasks", prefix: "tasks.fields", renamed: { assetId: "asset" } },
  logins: { section: "logins", prefix: "logins.fields", renamed: { assetId: "asset" } },
  beneficiaries: { section: "beneficiaries", prefix: "beneficiaries.fields" },
  legacyInstructions: { section: "legacy", prefix: "legacy.fields", renamed: { assetId: "asset", beneficiaryId: "beneficiary" } },
};

/** The lazy locale sections the labels of these collections' fields live in. */
export function labelSections(collections: Iterable<CollectionName>): string[] {
  const out = new Set<string>();
  for (const c of collections) {
    const s = FIELD_LABELS[c]?.section;
    if (s !== undefined) out.add(s);
  }
  return [...out].sort();
}

/** A field's label ("Fecha de compra"); the field's own name when no screen labels it. */
export function fieldLabel(t: T, collection: CollectionName, field: string): string {
  // Manual rates' fields have no form labels of their own (the dashboard's form is inline).
  if (collection === "fxRates") return t(`sync.rejectedChanges.rateFields.${field}`, { defaultValue: field });
  const labels = FIELD_LABELS[collection];
  if (!labels) return field;
  const name = labels.renamed?.[field] ?? field;
  const key = name.startsWith("../") ? `${labels.prefix.slice(0, labels.prefix.lastIndexOf("."))}.${name.slice(3)}` : `${labels.prefix}.${name}`;
  return t(key, { defaultValue: field });
}

const shorten = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What names a record to a person: its name, title or institution, the start of an instruction's
 * text, a rate's currency and date. Undefined when it has none (a valuation, a vault key). */
export function recordName(collection: CollectionName, fields: Fields | undefined): string | undefined {
  if (!fields) return undefined;
  const text = (k: string) => (typeof fields[k] === "string" && fields[k] !== "" ? (fields[k] as string) : undefined);
  switch (collection) {
    case "tasks":
      return text("title");
    case "logins":
      return text("institution");
    case "legacyInstructions": {
      const body = text("text");
      return body === undefined ? undefined : shorten(body);
    }
    case "fxRates":
      return text("currency") && text("date") ? `${text("currency")} ${text("date")}` : undefined;
    case "valuations":
    case "vaultKeys":
      return undefined;
    default:
      return text("name");
  }
}

/** Where a record is shown, for a link; undefined for records no screen shows on their own. */
export type RecordLink =
  | { to: "/assets/$assetId"; params: { assetId: string } }
  | { to: "/assets"; search: { tab: "legal-structures" } }
  | { to: "/liabilities"; search: { edit: string } }
  | { to: "/flows"; search: { edit: string } }
  | { to: "/beneficiaries"; search: { tab: "beneficiaries" | "instructions" } }
  | { to: "/tasks" | "/logins" | "/" };

export function recordLink(collection: CollectionName, id: string, fields: Fields | undefined): RecordLink | undefined {
  switch (collection) {
    case "assets":
      return { to: "/assets/$assetId", params: { assetId: id } };
    case "valuations":
      return typeof fields?.assetId === "string" ? { to: "/assets/$assetId", params: { assetId: fields.assetId } } : undefined;
    case "legalStructures":
      return { to: "/assets", search: { tab: "legal-structures" } };
    case "liabilities":
      return { to: "/liabilities", search: { edit: id } };
    case "cashFlows":
      return { to: "/flows", search: { edit: id } };
    case "beneficiaries":
      return { to: "/beneficiaries", search: { tab: "beneficiaries" } };
    case "legacyInstructions":
      return { to: "/beneficiaries", search: { tab: "instructions" } };
    case "tasks":
      return { to: "/tasks" };
    case "logins":
      return { to: "/logins" };
    case "fxRates":
      // Manual rates are kept on the dashboard.
      return { to: "/" };
    default:
      return undefined;
  }
}

/**
 * The server's reason for one issue, in the reader's language: the message key translated (the
 * shared schema's validation and sync texts, or the app's), numbers written the reader's way and a
 * role in words; the server's own text when the key is unknown to this version of the app, and the
 * refusal code's general explanation when there is neither.
 */
export function issueText(i18n: I18n, collection: CollectionName, code: string, issue: WireIssue): string {
  const t = i18n.t.bind(i18n) as unknown as T;
  const language = activeLanguage(i18n);
  const params: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(issue.params ?? {})) {
    if (name === "role" && typeof value === "string") params[name] = t(`sync.rejectedChanges.role.${value}`, { defaultValue: value });
    else params[name] = typeof value === "number" && name !== "count" ? formatNumber(value, language, { maximumFractionDigits: 20 }) : value;
  }
  const exists = i18n.exists.bind(i18n) as (key: string, options?: Record<string, unknown>) => boolean;
  let text: string | undefined;
  if (issue.key !== "" && exists(issue.key, { ns: SCHEMA_NAMESPACE })) text = t(issue.key, { ...params, ns: SCHEMA_NAMESPACE });
  else if (issue.key !== "" && exists(issue.key)) text = t(issue.key, params);
  else if (issue.message) text = issue.message;
  else text = codeText(t, code);
  const field = issue.path.split(".")[0] ?? "";
  return field === "" ? text : `${fieldLabel(t, collection, field)}: ${text}`;
}

/** The general explanation of a refusal code. */
export function codeText(t: T, code: string): string {
  switch (code) {
    case "invalid":
    case "forbidden":
    case "not_found":
    case "too_large":
      return t(`sync.rejectedChanges.code.${code}`);
    default:
      return t("sync.rejectedChanges.code.other");
  }
}
