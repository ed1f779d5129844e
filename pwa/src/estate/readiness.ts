// Estate readiness: who receives what, checked across every beneficiary. Pure functions over plain
// inputs (tested in Node), exact (decimal.js through pwa/src/money), never binary floats.
//
// The model (a will's specific bequests, then the residue): an allocation names one asset, or none
// for the whole estate. For each asset the specific allocations of all beneficiaries may not exceed
// 100 % (the device refuses it; two devices' merged edits can still do it, and then it is shown).
// The whole-estate allocations (also at most 100 % together) cover what the specific ones leave of
// every asset: an asset's coverage = S + (100 − S) × E / 100, S its specific sum (capped at 100),
// E the estate sum (capped at 100). The share of wealth with beneficiaries is Σ value × coverage /
// Σ value over the person's look-through value of each asset, in the base currency.
import { Dec, plain, sumInBase, type MissingConversion, type RateBook } from "../money";
import { hasContact } from "./count";

export { hasContact };

/** The target of an allocation of the whole estate (no assetId). */
export const ESTATE = "";

export interface AllocationLike {
  assetId?: string | undefined;
  percentage: string;
}

export interface EstateBeneficiary {
  id: string;
  name: string;
  email?: string | undefined;
  phone?: string | undefined;
  address?: string | undefined;
  allocations?: readonly AllocationLike[] | undefined;
}

export interface EstateAsset {
  id: string;
  name: string;
  currency: string;
  /** The person's look-through value in the asset's currency; undefined without a current value. */
  value?: string | undefined;
  /** The date of that value (the rate on or before it converts it). */
  date: string;
}

export type AllocationState = "none" | "partial" | "full" | "over";

const HUNDRED = new Dec(100);
const SHARE = /^\d+(\.\d+)?$/;

/** The sum of the allocations per target (asset id, or ESTATE), over every beneficiary. A percentage
 * that is not a decimal (a damaged record) is left out. */
export function allocationSums(beneficiaries: readonly Pick<EstateBeneficiary, "allocations">[]): Map<string, Dec> {
  const sums = new Map<string, Dec>();
  for (const b of beneficiaries) {
    for (const a of b.allocations ?? []) {
      if (!SHARE.test(a.percentage)) continue;
      const target = a.assetId ?? ESTATE;
      sums.set(target, (sums.get(target) ?? new Dec(0)).plus(a.percentage));
    }
  }
  return sums;
}

export function allocationState(sum: Dec): AllocationState {
  if (sum.isZero()) return "none";
  if (sum.gt(HUNDRED)) return "over";
  if (sum.eq(HUNDRED)) return "full";
  return "partial";
}

/** The ownership rule's message (shared-schema keys, spec §5) for an allocation sum: over 100 the sum
 * exceeds 100 %; under it, how many percent are left; null at exactly 100. */
export function allocationMessage(sum: Dec): { key: string; params: Record<string, number> } | null {
  if (sum.gt(HUNDRED)) return { key: "validation.percent.sumExceeds", params: {} };
  if (sum.lt(HUNDRED)) return { key: "validation.percent.remaining", params: { remaining: Number(plain(HUNDRED.minus(sum))) } };
  return null;
}

/** The sum of the allocations of one target if `percentage` replaced `beneficiaryId`'s own (what a
 * form shows while typing). Invalid input counts as 0. */
export function sumWith(
  beneficiaries: readonly (Pick<EstateBeneficiary, "allocations"> & { id: string })[],
  beneficiaryId: string | undefined,
  target: string,
  percentage: string,
): Dec {
  const others = allocationSums(beneficiaries.filter((b) => b.id !== beneficiaryId)).get(target) ?? new Dec(0);
  return SHARE.test(percentage) ? others.plus(percentage) : others;
}

/** Percent of an asset that goes to somebody: specific allocations, then the estate's share of the rest. */
export function coverage(specific: Dec, estate: Dec): Dec {
  const s = Dec.min(specific, HUNDRED);
  const e = Dec.min(estate, HUNDRED);
  return s.plus(HUNDRED.minus(s).times(e).div(HUNDRED));
}


export interface AssetAllocation<A> {
  asset: A;
  /** The specific allocations' sum (percent, plain decimal string). */
  sum: string;
  state: AllocationState;
  /** Percent of it that goes to somebody, estate included. */
  coverage: string;
}

export interface AllocationReview<A, B> {
  assets: AssetAllocation<A>[];
  /** Assets nobody receives (no allocation, no whole-estate allocation). */
  withoutBeneficiaries: AssetAllocation<A>[];
  /** Assets whose specific allocations add up to more than 100 % (merged from two devices). */
  over: AssetAllocation<A>[];
  /** Assets that are partly covered (some, not all, of it goes to somebody). */
  under: AssetAllocation<A>[];
  estate: { sum: string; state: AllocationState };
  withoutContact: B[];
  /** What the sidebar counts: assets without beneficiaries, over, under, beneficiaries without
   * contact data, and the whole estate over 100 %. */
  issueCount: number;
}

/** Checks every asset's allocations and every beneficiary's contact data (no values needed). */
export function reviewAllocations<A extends { id: string }, B extends EstateBeneficiary>(assets: readonly A[], beneficiaries: readonly B[]): AllocationReview<A, B> {
  const sums = allocationSums(beneficiaries);
  const estate = sums.get(ESTATE) ?? new Dec(0);
  const rows = assets.map((asset): AssetAllocation<A> => {
    const sum = sums.get(asset.id) ?? new Dec(0);
    return { asset, sum: plain(sum), state: allocationState(sum), coverage: plain(coverage(sum, estate)) };
  });
  const withoutBeneficiaries = rows.filter((r) => r.coverage === "0");
  const over = rows.filter((r) => r.state === "over");
  const under = rows.filter((r) => r.state !== "over" && r.coverage !== "0" && new Dec(r.coverage).lt(HUNDRED));
  const withoutContact = beneficiaries.filter((b) => !hasContact(b));
  const estateState = allocationState(estate);
  return {
    assets: rows,
    withoutBeneficiaries,
    over,
    under,
    estate: { sum: plain(estate), state: estateState },
    withoutContact,
    issueCount: withoutBeneficiaries.length + over.length + under.length + withoutContact.length + (estateState === "over" ? 1 : 0),
  };
}

export interface WealthShare {
  base: string;
  /** Covered value / total value in percent, 2 decimals (half even); null when nothing could be valued. */
  sharePercent: string | null;
  /** Totals in the base currency (plain decimal strings). */
  covered: string;
  total: string;
  /** Assets left out: no current value, or a missing exchange rate. */
  unvalued: string[];
  missingRates: MissingConversion<string>[];
}

/** The share of the person's wealth (look-through value of each asset, in `base`) that has beneficiaries. */
export function wealthShare(assets: readonly EstateAsset[], beneficiaries: readonly EstateBeneficiary[], base: string, rates: RateBook): WealthShare {
  const review = reviewAllocations(assets, beneficiaries);
  const valued = review.assets.filter((r) => r.asset.value !== undefined && SHARE.test(r.asset.value));
  const unvalued = review.assets.filter((r) => !valued.includes(r)).map((r) => r.asset.id);
  const total = sumInBase(
    valued.map((r) => ({ key: r.asset.id, amount: r.asset.value!, currency: r.asset.currency, date: r.asset.date })),
    base,
    rates,
  );
  const covered = sumInBase(
    valued.map((r) => ({ key: r.asset.id, amount: plain(new Dec(r.asset.value!).times(r.coverage).div(HUNDRED)), currency: r.asset.currency, date: r.asset.date })),
    base,
    rates,
  );
  const sharePercent = total.value.isZero() ? null : covered.value.div(total.value).times(HUNDRED).toDecimalPlaces(2, Dec.ROUND_HALF_EVEN).toFixed();
  return { base, sharePercent, covered: covered.total, total: total.total, unvalued, missingRates: total.missing };
}
