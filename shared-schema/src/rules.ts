// Shared pieces of the cross-field rules (the ones JSON Schema cannot express). Each rule is
// written once here in TypeScript and once in Go (shared-schema/rules.go); the vectors in
// testdata/ pin both to the same verdict, path and message key.
import type * as z from "zod";

/** Run a cross-field rule only when everything else already passed (the Go side does the same:
 * rules run after JSON Schema validation succeeds). */
export const whenValid = { when: (payload: z.core.ParsePayload) => payload.issues.length === 0 };

export type RuleParams = Record<string, string | number>;

/** Report a rule failure: a message key plus its interpolation params, at a path. */
export function fail(ctx: z.core.$RefinementCtx, path: (string | number)[], key: string, params: RuleParams = {}): void {
  ctx.addIssue({ code: "custom", path, params: { key, ...params } });
}

/** Dates are YYYY-MM-DD strings, so string order is date order. */
export function isAfter(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a > b;
}
