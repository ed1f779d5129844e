// The readiness count the sidebar shows, without decimal.js (it loads with the shell): shares have at
// most two decimals, so integer hundredths (clientdb's allocatedHundredths) are exact. The same rules
// as reviewAllocations (readiness.ts), which a test checks against this.
import { allocatedHundredths, ESTATE, type SyncedRecord } from "@patrimonio/clientdb";

const FULL = 10000;

export function hasContact(b: { email?: string | undefined; phone?: string | undefined; address?: string | undefined }): boolean {
  return [b.email, b.phone, b.address].some((v) => v !== undefined && v.trim() !== "");
}

/** Assets without beneficiaries, allocated over or under 100 %, beneficiaries without contact data,
 * and the whole estate over 100 %: how many things the readiness tab asks to look at. */
export function readinessCount(
  assetIds: readonly string[],
  beneficiaries: readonly Pick<SyncedRecord<"beneficiaries">, "id" | "deleted" | "fields">[],
): number {
  const sums = allocatedHundredths(beneficiaries);
  const estate = sums.get(ESTATE) ?? 0;
  let count = estate > FULL ? 1 : 0;
  for (const id of assetIds) {
    const s = sums.get(id) ?? 0;
    if (s > FULL) count++; // over
    else if (s === 0 && estate === 0) count++; // nobody receives it
    else if (s < FULL && estate < FULL) count++; // partly covered
  }
  for (const b of beneficiaries) if (!b.deleted && !hasContact(b.fields)) count++;
  return count;
}
