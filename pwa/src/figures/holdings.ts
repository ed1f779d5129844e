// Each asset as the figures see it: the person's effective share through its chain of legal
// structures (look-through) and its dated values (the valuation history plus the current value),
// in its own currency, already multiplied by the share.
//
// A disposed asset (sold, given away, lost: asset.disposal) is held up to the day before its
// disposal date (decision): values are end-of-day, so on that day its value is 0 and the sale's
// amount is money taken out of it (its returns realise the sale). Without an amount, a gift leaves
// at its last value (money taken out: neither gain nor loss on the day), any other disposal (lost,
// stolen, written off) leaves for nothing (a loss of its last value). Valuations and cash flows
// after that day are not the person's any more and are left out. A disposal dated after today
// (another device's calendar) counts from today: the lists already show the asset as gone.
import { outstandingOn } from "../liabilities/amortization";
import { Dec, parseDecimal } from "../money";
import { BALANCE_CLASS, investorAmount, occurrenceDates } from "./flows";
import type { FigAsset, FigCashFlow, FigLiability, FigStructure, FigValuation } from "./types";

export interface Point {
  date: string;
  /** The value as written (the whole asset), in `currency`. */
  raw: string;
  currency: string;
  /** The person's share of it (raw × share), computed on first use: a large history is read lazily. */
  share: Dec;
  cached?: Dec;
}

/** The person's share of a point's value, in its currency. */
export function amountOf(pt: Point): Dec {
  return (pt.cached ??= new Dec(pt.raw).mul(pt.share));
}

export interface Holding {
  asset: FigAsset;
  /** Effective share as a fraction (0.3 = 30 %). */
  share: Dec;
  /** Structure ids from the holding one up to the top. */
  chain: string[];
  /** Dated values, by date ascending, one per date (the current value wins on its date). */
  points: Point[];
  /** Money put in: the purchase (share of it), when known and more than 0. */
  purchase?: Point;
  /** The asset's cash flows up to today, the investor's way (+ put in, − taken out; share of it),
   * by date ascending. */
  flows: Point[];
  /** The day the asset left (its disposal date, at most today): from it on it is worth nothing to
   * the person and is left out of net worth; its last point is a 0 on that day. */
  disposedOn?: string;
}

type StructureLinks = ReadonlyMap<string, Pick<FigStructure, "parentStructureId" | "ownershipPercentage">>;

/** The chain of structures above an asset (each structure once, even if the data loops). */
export function structureChain(structureId: string | undefined, byId: StructureLinks): string[] {
  const chain: string[] = [];
  const seen = new Set<string>();
  let id = structureId;
  while (id !== undefined && !seen.has(id)) {
    const s = byId.get(id);
    if (!s) break;
    seen.add(id);
    chain.push(id);
    id = s.parentStructureId;
  }
  return chain;
}

/** participation × Π ownership along the chain, as a fraction; absent percentages count as 100.
 * The dashboard's look-through, and the asset page's (screens/assets/detail/detailModel.ts). */
export function effectiveShare(asset: Pick<FigAsset, "participation" | "legalStructureId">, byId: StructureLinks): { share: Dec; chain: string[] } {
  const chain = structureChain(asset.legalStructureId, byId);
  let share = (parseDecimal(asset.participation) ?? new Dec(100)).div(100);
  for (const id of chain) share = share.mul((parseDecimal(byId.get(id)?.ownershipPercentage) ?? new Dec(100)).div(100));
  return { share, chain };
}

/**
 * The part of a debt the person bears on `date`, in the debt's currency (decision, see now.ts): a
 * debt tied to an asset at that asset's effective share (`share`), any other in full (`share`
 * undefined); a debt that starts after `date` is not owed yet (null). The one rule of the net
 * worth, its chart and the asset page's net equity.
 */
export function borneDebt(debt: Pick<FigLiability, "amountOutstanding" | "startDate" | "terms">, share: Dec | undefined, date: string): Dec | null {
  if (debt.startDate !== undefined && debt.startDate > date) return null;
  const amount = new Dec(debt.terms ? outstandingOn(debt.terms.debt, date, debt.terms.decimals) : debt.amountOutstanding);
  return share === undefined ? amount : amount.mul(share);
}

const DECIMAL = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

function byDate(a: { date: string }, b: { date: string }): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : 0;
}

/** The holdings of every asset. Values after `today` are ignored (a future-dated value is not yet). */
export function buildHoldings(
  assets: readonly FigAsset[],
  structures: readonly FigStructure[],
  valuations: readonly FigValuation[],
  today: string,
  cashFlows: readonly FigCashFlow[] = [],
): Holding[] {
  const structById = new Map(structures.map((s) => [s.id, s]));
  // Many assets share a participation and a structure: compute each share once.
  const shares = new Map<string, { share: Dec; chain: string[] }>();
  const valsByAsset = new Map<string, FigValuation[]>();
  for (const v of valuations) {
    let list = valsByAsset.get(v.assetId);
    if (!list) valsByAsset.set(v.assetId, (list = []));
    list.push(v);
  }
  const flowsByAsset = new Map<string, FigCashFlow[]>();
  for (const f of cashFlows) {
    let list = flowsByAsset.get(f.assetId);
    if (!list) flowsByAsset.set(f.assetId, (list = []));
    list.push(f);
  }
  return assets.map((asset) => {
    const shareKey = `${asset.participation ?? ""}|${asset.legalStructureId ?? ""}`;
    let found = shares.get(shareKey);
    if (!found) shares.set(shareKey, (found = effectiveShare(asset, structById)));
    const { share, chain } = found;
    const gone = asset.disposal === undefined ? undefined : asset.disposal.date < today ? asset.disposal.date : today;
    // The last day anything of the asset counts: its disposal day (flows on it are inside it), or today.
    const until = gone ?? today;
    const dated = new Map<string, { value: string; currency: string }>();
    for (const v of valsByAsset.get(asset.id) ?? []) if (v.date <= until) dated.set(v.date, { value: v.value, currency: v.currency });
    if (asset.currentValue !== undefined) {
      const date = asset.valuationDate ?? today;
      if (date <= until) dated.set(date, { value: asset.currentValue, currency: asset.currency });
    }
    let points: Point[] = [];
    for (const [date, v] of dated) if (DECIMAL.test(v.value)) points.push({ date, raw: v.value, currency: v.currency, share });
    points.sort(byDate);
    const flows: Point[] = [];
    for (const f of flowsByAsset.get(asset.id) ?? []) {
      if (!DECIMAL.test(f.amount)) continue;
      // A bank account's flows go through its balance: inflow is money put in (flows.ts).
      const raw = investorAmount(f, asset.assetClass === BALANCE_CLASS);
      for (const date of occurrenceDates(f, until)) flows.push({ date, raw, currency: f.currency, share });
    }
    if (gone !== undefined) {
      // Its value on the day it left (the last one on or before it), then 0 from that day on.
      const last = points[points.length - 1];
      const amount = asset.disposal!.amount;
      const out =
        amount !== undefined && DECIMAL.test(amount)
          ? { raw: amount, currency: asset.currency }
          : asset.disposal!.kind === "gifted" && last
            ? { raw: last.raw, currency: last.currency }
            : undefined;
      if (out && !new Dec(out.raw).isZero()) flows.push({ date: gone, raw: out.raw.startsWith("-") ? out.raw.slice(1) : `-${out.raw}`, currency: out.currency, share });
      points = points.filter((pt) => pt.date < gone);
      points.push({ date: gone, raw: "0", currency: asset.currency, share });
    }
    flows.sort(byDate);
    const holding: Holding = { asset, share, chain, points, flows };
    if (gone !== undefined) holding.disposedOn = gone;
    // A purchase for nothing (an inheritance, a gift: value 0) is no money put in: the asset's
    // returns, and its group's, start at its first value as when no purchase is known. Taken as
    // money put in, its whole first value read as a gain (a class +205 % for an inherited house).
    if (asset.purchaseValue !== undefined && DECIMAL.test(asset.purchaseValue) && !new Dec(asset.purchaseValue).lte(0) && asset.purchaseDate && asset.purchaseDate <= until) {
      holding.purchase = { date: asset.purchaseDate, raw: asset.purchaseValue, currency: asset.currency, share };
    }
    return holding;
  });
}

/** The holding's last point on or before `date` (binary search), or undefined. */
export function pointOn(points: readonly Point[], date: string): Point | undefined {
  let lo = 0;
  let hi = points.length - 1;
  let found: Point | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (points[mid]!.date <= date) {
      found = points[mid];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
