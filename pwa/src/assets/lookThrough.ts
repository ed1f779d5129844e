// Look-through: the person's effective share of an asset held through a chain of legal structures,
// and its value. The share is the product of the ownership percentages along the chain (from the
// structure that holds the asset up to the top one) times the asset's participation; a structure
// without an ownership percentage counts as fully owned (100 %). Exact (decimal.js, 60 digits);
// when the chain loops (a merge of two offline edits), each structure counts once and `cycle` says
// so, so every figure stays finite.
import { ancestorChain, type StructureLink } from "@patrimonio/clientdb";
import Decimal from "decimal.js";
import { decimalString } from "./money";

const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

export interface LookThroughStructure extends StructureLink {
  ownershipPercentage?: string | undefined;
}

export interface LookThrough {
  /** Structure ids from the one that holds the asset up to the top ([] when held directly). */
  chain: string[];
  /** The effective share in percent, rounded half up to 4 decimals ("30", "12.5"). */
  sharePercent: string;
  /** currentValue × effective share / 100, half up to 4 decimals; undefined without a current value. */
  value: string | undefined;
  /** The chain loops: the figures count each structure once. */
  cycle: boolean;
  /** A structure id in the chain does not exist on this device (deleted, or not synced yet). */
  broken: boolean;
}

/** Multiplies percentages: 100 × 60 % × 50 % → "30". Pure, exact. */
export function chainShare(participation: string, ownershipPercentages: readonly (string | undefined)[]): Decimal {
  let share = new Exact(participation);
  for (const p of ownershipPercentages) share = share.times(new Exact(p ?? "100")).div(100);
  return share;
}

export function lookThrough(
  asset: { currentValue?: string | undefined; participation?: string | undefined; legalStructureId?: string | undefined },
  structuresById: ReadonlyMap<string, LookThroughStructure>,
): LookThrough {
  const walked = asset.legalStructureId === undefined ? { chain: [], cycle: false, broken: false } : ancestorChain(structuresById as Map<string, StructureLink>, asset.legalStructureId);
  const share = chainShare(asset.participation ?? "100", walked.chain.map((id) => structuresById.get(id)?.ownershipPercentage));
  const value = asset.currentValue === undefined ? undefined : decimalString(new Exact(asset.currentValue).times(share).div(100).toDecimalPlaces(4, Decimal.ROUND_HALF_UP));
  return { chain: walked.chain, sharePercent: decimalString(share.toDecimalPlaces(4, Decimal.ROUND_HALF_UP)), value, cycle: walked.cycle, broken: walked.broken };
}

/** A map of structures by id from records (for lookThrough). */
export function structuresMap(records: readonly { id: string; fields: { ownershipPercentage?: string | undefined; parentStructureId?: string | undefined } }[]): Map<string, LookThroughStructure> {
  return new Map(records.map((r) => [r.id, { id: r.id, parentStructureId: r.fields.parentStructureId, ownershipPercentage: r.fields.ownershipPercentage }]));
}

/** The person's effective share of a structure itself: the product of the ownership percentages from
 * it up to the top (absent = 100 %), half up to 4 decimals, with the same cycle and broken flags. */
export function structureShare(structureId: string, structuresById: ReadonlyMap<string, LookThroughStructure>): Omit<LookThrough, "value"> {
  const walked = ancestorChain(structuresById as Map<string, StructureLink>, structureId);
  const share = chainShare("100", walked.chain.map((id) => structuresById.get(id)?.ownershipPercentage));
  return { chain: walked.chain, sharePercent: decimalString(share.toDecimalPlaces(4, Decimal.ROUND_HALF_UP)), cycle: walked.cycle, broken: walked.broken };
}
