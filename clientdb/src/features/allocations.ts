// The shares beneficiaries are allocated, summed per asset (and for the whole estate). Apart from
// the beneficiary commands because screens that only show them (the dashboard's estate readiness)
// need it, and the commands' module loads the beneficiary schema (zod).
import { toHundredths } from "@patrimonio/shared-schema";
import type { SyncedRecord } from "../clientdb";

/** The allocation target of the whole estate (an allocation without assetId). */
export const ESTATE = "";

/** The shared-schema messages of the ownership rule, reused for allocations (spec §5). */
export const SUM_EXCEEDS_KEY = "validation.percent.sumExceeds";
export const REMAINING_KEY = "validation.percent.remaining";

/**
 * Hundredths of a percent allocated per target (asset id, or ESTATE for the whole estate), summed over
 * beneficiaries (deleted ones and `exceptId` left out). Integers: shares have at most two decimals.
 */
export function allocatedHundredths(
  beneficiaries: readonly Pick<SyncedRecord<"beneficiaries">, "id" | "deleted" | "fields">[],
  exceptId?: string,
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const b of beneficiaries) {
    if (b.deleted || b.id === exceptId) continue;
    for (const a of b.fields.allocations ?? []) {
      if (typeof a.percentage !== "string") continue;
      const target = a.assetId ?? ESTATE;
      sums.set(target, (sums.get(target) ?? 0) + toHundredths(a.percentage));
    }
  }
  return sums;
}

