// From zod issues to `{ path, key, params }`: the one shape both languages report.
//
// Every failure maps to a message key of messages/<lang>.json plus interpolation params; the Go
// side (issues.go) maps JSON Schema errors to the same keys by the same rules:
//   missing field / empty where min length is 1   -> x-required-key of the field, else validation.required
//   wrong JSON type                               -> validation.type.<string|number|integer|boolean|object|array>
//   string/array/number/object bounds             -> validation.<string|array|number|object>.<min|max> {min|max}
//   pattern (string format) failure               -> validation.format.<format>  ("" -> x-required-key if any)
//   enum / literal failure                        -> x-key of the field, else validation.enum ("" -> x-required-key if any)
//   unknown field, or record key refused          -> validation.unknownField, path = the unknown field
//   cross-field rules                             -> their own keys (rules.ts / rules.go)
// Paths are dotted: "otherOwners.1.percentage"; "" is the document itself.
import * as z from "zod";
import { ENUM_KEY, REQUIRED_KEY } from "./primitives";
import { LIMITS } from "./limits";

export type IssueParams = Record<string, string | number>;
export interface Issue {
  path: string;
  key: string;
  params: IssueParams;
}
export type Validated<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

interface Described {
  key: string;
  params: IssueParams;
  /** The safe-integer bound zod adds to every int: dropped when the field has a real bound issue. */
  weak?: boolean;
}

const TYPE_NAMES: Record<string, string> = { int: "integer", record: "object", nan: "number" };

function metaOf(inst: unknown): Record<string, unknown> | undefined {
  if (!inst || typeof inst !== "object") return undefined;
  return z.globalRegistry.get(inst as z.ZodType) as Record<string, unknown> | undefined;
}

function requiredOverride(issue: Record<string, unknown>): string | undefined {
  const own = issue[REQUIRED_KEY];
  if (typeof own === "string") return own;
  const fromMeta = metaOf(issue.inst)?.[REQUIRED_KEY];
  return typeof fromMeta === "string" ? fromMeta : undefined;
}

function bound(kind: "min" | "max", origin: string, value: number | bigint): Described {
  const group = origin === "string" ? "string" : origin === "array" ? "array" : origin === "object" ? "object" : "number";
  return { key: `validation.${group}.${kind}`, params: { [kind]: Number(value) }, weak: origin === "int" };
}

/** The message key and params of one raw zod issue (as an error map sees it). */
export function describeIssue(raw: z.core.$ZodRawIssue): Described {
  const issue = raw as unknown as Record<string, unknown> & z.core.$ZodRawIssue;
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return { key: requiredOverride(issue) ?? "validation.required", params: {} };
      {
        // z.int() reports a non-number as "expected number"; JSON Schema says "integer".
        const def = (issue.inst as { _zod?: { def?: { format?: unknown } } } | undefined)?._zod?.def;
        const integer = typeof def?.format === "string" && def.format.includes("int");
        const expected = integer ? "integer" : (TYPE_NAMES[issue.expected] ?? issue.expected);
        return { key: `validation.type.${expected}`, params: {} };
      }
    case "too_small":
      // Empty, or nothing where at least one character is needed: the field's "required" message.
      if (issue.origin === "string" && (Number(issue.minimum) <= 1 || (issue.input === "" && requiredOverride(issue)))) {
        return { key: requiredOverride(issue) ?? "validation.required", params: {} };
      }
      return bound("min", issue.origin, issue.minimum);
    case "too_big":
      return bound("max", issue.origin, issue.maximum);
    case "invalid_format":
      if (issue.input === "" && requiredOverride(issue)) return { key: requiredOverride(issue)!, params: {} };
      return { key: `validation.format.${issue.format}`, params: {} };
    case "invalid_value": {
      if (issue.input === undefined) return { key: requiredOverride(issue) ?? "validation.required", params: {} };
      if (issue.input === "" && requiredOverride(issue)) return { key: requiredOverride(issue)!, params: {} };
      // A string enum given a non-string fails on its JSON type first (as JSON Schema reports it).
      if (typeof issue.input !== "string" && issue.values.every((v) => typeof v === "string")) {
        return { key: "validation.type.string", params: {} };
      }
      const custom = metaOf(issue.inst)?.[ENUM_KEY];
      return { key: typeof custom === "string" ? custom : "validation.enum", params: {} };
    }
    case "unrecognized_keys":
      return { key: "validation.unknownField", params: {} };
    case "invalid_union": {
      const discriminator = issue.discriminator;
      if (typeof discriminator === "string") {
        const input = issue.input as Record<string, unknown> | undefined;
        return { key: input?.[discriminator] === undefined ? "validation.required" : "validation.enum", params: {} };
      }
      return { key: "validation.invalid", params: {} };
    }
    case "invalid_key":
      // A record key its key schema refuses is a field that may not be there (JSON Schema:
      // patternProperties + additionalProperties false).
      return { key: "validation.unknownField", params: {} };
    case "custom": {
      const { key, ...params } = (issue.params ?? {}) as IssueParams;
      return { key: typeof key === "string" ? key : "validation.invalid", params };
    }
    default:
      return { key: "validation.invalid", params: {} };
  }
}

/** Error map that encodes key and params in the message; `issuesFromError` decodes them.
 * `schema.safeParse(x, { error: keyErrorMap })` then `issuesFromError(result.error)`. */
export const keyErrorMap: z.core.$ZodErrorMap = (issue) => JSON.stringify(describeIssue(issue));

/** Deepest nesting of objects/arrays (root container = 1), stopping once past `limit`. */
export function depthOf(value: unknown, limit: number = LIMITS.maxDepth): number {
  if (value === null || typeof value !== "object") return 0;
  if (limit < 0) return 1;
  let deepest = 0;
  for (const child of Object.values(value)) {
    deepest = Math.max(deepest, depthOf(child, limit - 1));
    if (deepest > limit) break;
  }
  return deepest + 1;
}

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Sort by path then key (code point order, the same as Go's byte order), drop duplicates. */
export function sortIssues(issues: Issue[]): Issue[] {
  const seen = new Set<string>();
  return [...issues]
    .sort((a, b) => compareCodePoints(a.path, b.path) || compareCodePoints(a.key, b.key))
    .filter((issue) => {
      const id = `${issue.path}\u0000${issue.key}`;
      if (seen.has(id)) return false;
      seen.add(id);
      return true;
    });
}

/** Turn a ZodError into sorted `{ path, key, params }` issues. Exact for errors parsed with
 * `keyErrorMap` (as `validate` does); for an error parsed with another error map the keys are
 * derived from the finished issue alone, which lacks the overrides kept on the schema (a missing
 * field's x-required-key, an enum's x-key). */
export function issuesFromError(error: z.ZodError): Issue[] {
  const out: (Issue & { weak?: boolean })[] = [];
  for (const zi of error.issues) {
    let described: Described;
    try {
      described = JSON.parse(zi.message) as Described;
      if (typeof described?.key !== "string") throw new Error("not a key message");
    } catch {
      described = describeIssue({ ...zi, input: zi.input } as z.core.$ZodRawIssue);
    }
    const base = zi.path.map(String);
    const extra = zi.code === "unrecognized_keys" ? zi.keys.map((k) => [k]) : [[]];
    for (const tail of extra) {
      out.push({ path: [...base, ...tail].join("."), key: described.key, params: described.params, weak: described.weak });
    }
  }
  const kept = out.filter((issue) => !issue.weak || !out.some((other) => other !== issue && other.path === issue.path && !other.weak));
  return sortIssues(kept.map(({ path, key, params }) => ({ path, key, params })));
}

/** Validate `input` with `schema`: the value (unchanged) or every issue as { path, key, params }. */
export function validateWith<T>(schema: z.ZodType<T>, input: unknown): Validated<T> {
  if (depthOf(input) > LIMITS.maxDepth) {
    return { ok: false, issues: [{ path: "", key: "validation.document.tooDeep", params: { max: LIMITS.maxDepth } }] };
  }
  const result = schema.safeParse(input, { error: keyErrorMap });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: issuesFromError(result.error) };
}

export type Translate = (key: string, params: IssueParams) => string;

/** A zod error map that translates through `t` (e.g. i18next's `t`):
 * `z.config({ customError: createErrorMap((key, params) => i18n.t(key, params)) })`. */
export function createErrorMap(t: Translate): z.core.$ZodErrorMap {
  return (issue) => {
    const { key, params } = describeIssue(issue);
    return t(key, params);
  };
}
