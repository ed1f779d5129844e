// The figures of the asset detail screen, pure and exact (decimal.js on decimal strings, never
// binary floats): the ownership sum rule with the spec's two messages, the associated debt total and
// the net equity (the dashboard's rule), how old a valuation is, the valuation history in date order, and the kind-specific
// fields that are set.
import type { Asset, Liability, Valuation } from "@patrimonio/shared-schema";
import Decimal from "decimal.js";
import { borneDebt, effectiveShare, type FigStructure } from "../../../figures";
import { Dec, plain } from "../../../money";

/** A decimal string as the records hold it ("1234.5"), without exponent or trailing zeros. */
export function decimalString(value: Decimal): string {
  return value.toFixed();
}

export type OwnershipSum =
  | { state: "complete"; total: string }
  | { state: "exceeds"; total: string }
  | { state: "remaining"; total: string; remaining: string }
  | { state: "invalid" };

/**
 * The spec's sum rule (§4–§5): participation plus the other owners must make 100. Over 100 the
 * message is "the sum exceeds 100 %" (validation.percent.sumExceeds), under 100 how many percent
 * are left (validation.percent.remaining {remaining}). Values still being typed ("" or not a
 * number) make the sum "invalid" (no message yet: the field's own error says what is wrong).
 */
export function ownershipSum(participation: string, others: readonly { percentage: string }[]): OwnershipSum {
  const parts = [participation, ...others.map((o) => o.percentage)];
  let total = new Decimal(0);
  for (const part of parts) {
    if (!/^\d+(\.\d+)?$/.test(part)) return { state: "invalid" };
    total = total.plus(part);
  }
  const hundred = new Decimal(100);
  if (total.gt(hundred)) return { state: "exceeds", total: decimalString(total) };
  if (total.lt(hundred)) return { state: "remaining", total: decimalString(total), remaining: decimalString(hundred.minus(total)) };
  return { state: "complete", total: decimalString(total) };
}

/** The message key and params of an ownership sum (those of shared-schema), or null when it is 100. */
export function ownershipMessage(sum: OwnershipSum): { key: string; params: Record<string, string | number> } | null {
  if (sum.state === "exceeds") return { key: "validation.percent.sumExceeds", params: {} };
  // The schema's rule passes `remaining` as a number of percent (e.g. 12.5).
  if (sum.state === "remaining") return { key: "validation.percent.remaining", params: { remaining: Number(sum.remaining) } };
  return null;
}

export interface DebtFigures {
  /** Sum of the outstanding amounts in the asset's currency that are owed today (the whole debts). */
  total: string;
  /** The person's effective share of the asset in percent: participation × the ownership
   * percentages of the structures holding it (look-through), exact ("100", "40"). */
  sharePercent: string;
  /** currentValue × share, in the asset's currency; undefined without a current value. */
  value: string | undefined;
  /** The part of `total` the person bears: total × share. */
  debtShare: string;
  /** Debts in other currencies (not added: no conversion here), whole, as they are. */
  otherCurrencies: { currency: string; total: string }[];
  /** Debts that start after today (not owed yet, not in the total), per currency, whole. */
  notStarted: { currency: string; total: string }[];
  /** value − debtShare, in the asset's currency; undefined without a current value. */
  netEquity: string | undefined;
}

function perCurrency(map: ReadonlyMap<string, Dec>): { currency: string; total: string }[] {
  return [...map.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([c, v]) => ({ currency: c, total: plain(v) }));
}

/**
 * The associated debt of an asset and its net equity, by the dashboard's rule (figures/now.ts; the
 * same functions, so the asset page and the dashboard and map agree): the asset at the person's
 * effective share through its legal structures, each tied debt at that same share, a debt that
 * starts after `today` not yet. Debts in other currencies are listed apart and left out of the net
 * equity (converting needs rates; the screen says so).
 */
export function debtFigures(
  liabilities: readonly Pick<Liability, "amountOutstanding" | "currency" | "startDate">[],
  asset: Pick<Asset, "currency" | "currentValue" | "legalStructureId"> & { participation?: string | undefined },
  structures: readonly Pick<FigStructure, "id" | "parentStructureId" | "ownershipPercentage">[],
  today: string,
): DebtFigures {
  const { share } = effectiveShare(asset, new Map(structures.map((s) => [s.id, s])));
  let total = new Dec(0);
  let debtShare = new Dec(0);
  const others = new Map<string, Dec>();
  const later = new Map<string, Dec>();
  for (const l of liabilities) {
    const borne = borneDebt(l, share, today);
    if (borne === null) later.set(l.currency, (later.get(l.currency) ?? new Dec(0)).plus(l.amountOutstanding));
    else if (l.currency !== asset.currency) others.set(l.currency, (others.get(l.currency) ?? new Dec(0)).plus(l.amountOutstanding));
    else {
      total = total.plus(l.amountOutstanding);
      debtShare = debtShare.plus(borne);
    }
  }
  const value = asset.currentValue === undefined ? undefined : new Dec(asset.currentValue).mul(share);
  return {
    total: plain(total),
    sharePercent: plain(share.mul(100)),
    value: value === undefined ? undefined : plain(value),
    debtShare: plain(debtShare),
    otherCurrencies: perCurrency(others),
    notStarted: perCurrency(later),
    netEquity: value === undefined ? undefined : plain(value.minus(debtShare)),
  };
}

/** Whole days from `date` (YYYY-MM-DD) to `today` (YYYY-MM-DD); negative for a future date. */
export function daysBetween(date: string, today: string): number {
  const a = Date.parse(`${date}T00:00:00Z`);
  const b = Date.parse(`${today}T00:00:00Z`);
  return Math.round((b - a) / 86_400_000);
}

/** Whole calendar months from `date` to `today` (both YYYY-MM-DD); negative for a future date. */
export function monthsBetween(date: string, today: string): number {
  const [y1, m1, d1] = date.split("-").map(Number) as [number, number, number];
  const [y2, m2, d2] = today.split("-").map(Number) as [number, number, number];
  const raw = (y2 - y1) * 12 + (m2 - m1);
  if (raw > 0 && d2 < d1) return raw - 1;
  if (raw < 0 && d2 > d1) return raw + 1;
  return raw;
}

/** How old a valuation is, as a value and unit for Intl.RelativeTimeFormat ("hace 3 meses"):
 * days under a month, calendar months under two years, then whole years. */
export function valuationAge(date: string, today: string): { value: number; unit: "day" | "month" | "year" } {
  const days = daysBetween(date, today);
  const months = monthsBetween(date, today);
  if (months === 0) return { value: days === 0 ? 0 : -days, unit: "day" };
  if (Math.abs(months) < 24) return { value: -months, unit: "month" };
  return { value: -Math.trunc(months / 12), unit: "year" };
}

/** Valuations oldest first (same date: the record created first first). */
export function sortValuations<V extends { id: string; fields: Pick<Valuation, "date"> }>(valuations: readonly V[]): V[] {
  return [...valuations].sort((a, b) => a.fields.date.localeCompare(b.fields.date) || a.id.localeCompare(b.id));
}

/**
 * What adding a dated valuation does to the asset: when it is the newest one (its date is not
 * before the asset's valuation date), it becomes the asset's current value and valuation date.
 */
export function valuationPatch(asset: Pick<Asset, "valuationDate">, valuation: Pick<Valuation, "date" | "value">): { currentValue: string; valuationDate: string } | null {
  if (asset.valuationDate !== undefined && valuation.date < asset.valuationDate) return null;
  return { currentValue: valuation.value, valuationDate: valuation.date };
}

/** The kind-specific field groups of an asset and the top-level fields that describe its kind. */
export const KIND_FIELDS = [
  "area",
  "yearOfConstruction",
  "institution",
  "market",
  "issuingCompany",
  "quantity",
  "isin",
  "bondType",
  "rate",
  "paymentFrequency",
  "amortizationDate",
  "holdingType",
  "acquisitionForm",
  "legalType",
  "taxIdentifier",
  "taxLocation",
  "description",
] as const satisfies readonly (keyof Asset)[];

export const KIND_GROUPS = ["vehicle", "animal", "collectible", "investment", "derivative", "crypto"] as const satisfies readonly (keyof Asset)[];

/** The fields of one group that are set ([field, value] in schema order). */
export function setEntries(group: Record<string, unknown> | undefined): [string, unknown][] {
  if (!group) return [];
  return Object.entries(group).filter(([, v]) => v !== undefined && v !== null && v !== "");
}

