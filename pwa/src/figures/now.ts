// The figures of today: net worth in the base currency (look-through asset values − liabilities),
// and its distribution and diversification. Every amount, asset or debt, is converted with the rate
// on or before today (H8's convert: through EUR, never 1:1); a value without a rate is left out and
// listed. Decision: today's worth of a value in another currency is that value at today's rate,
// whatever day it was last valued on: with the rate of the valuation's date, a USD balance last
// updated years ago kept that year's rate while a USD debt tied to it moved with today's, and the
// two did not cancel. (Returns keep the rate of each value's own date: history.ts.)
//
// Liabilities (decision): a debt tied to an asset counts at that asset's effective share (the
// person's participation × the ownership percentages of the structures holding it): the structure
// owes it, so the person bears the same share of it as of the asset. A debt tied to no asset (or to
// an asset that no longer exists) counts in full; a debt that starts after today does not count
// yet. Liabilities have no history: their amount outstanding is converted with the rate on or
// before `today`.
import { Dec, plain, RateBook } from "../money";
import { amountOf, borneDebt, buildHoldings, type Holding } from "./holdings";
import { makeConverter } from "./rates";
import type { DimensionId, FigAsset, FiguresInput, MissingItem, NetWorth, NowFigures, Slice } from "./types";

export interface Prepared {
  input: FiguresInput;
  book: RateBook;
  holdings: Holding[];
}

export function prepare(input: FiguresInput): Prepared {
  return {
    input,
    book: new RateBook(input.rates, input.manualRates),
    holdings: buildHoldings(input.assets, input.structures, input.valuations, input.today, input.cashFlows),
  };
}

export const DIMENSIONS: readonly DimensionId[] = ["class", "category", "currency", "country", "liquidity", "risk", "institution", "structure"];

function sliceKey(dimension: DimensionId, a: FigAsset, chain: readonly string[]): string {
  switch (dimension) {
    case "class":
      return String(a.classId);
    case "category":
      return a.categoryId !== undefined ? String(a.categoryId) : `${a.classId}:${a.category}`;
    case "currency":
      return a.currency;
    case "country":
      return a.noTaxRegistration ? "none" : (a.taxCountry ?? "unknown");
    case "liquidity":
      return a.liquidity !== undefined ? String(a.liquidity) : "unknown";
    case "risk":
      return a.risk !== undefined ? String(a.risk) : "unknown";
    case "institution":
      return a.institution?.trim() ? a.institution.trim() : "unknown";
    case "structure":
      return chain[0] ?? "direct";
  }
}

interface Acc {
  slice: Slice;
  value: Dec;
  net: Dec;
}

/** What the distribution needs from the net worth: each counted asset's value and tied debts in base. */
export interface NetWorthParts {
  netWorth: NetWorth;
  assetValue: Map<string, Dec>;
  missingAsset: Set<string>;
  debtOf: Map<string, Dec>;
  untied: { value: Dec; count: number };
}

/** Net worth today (the first figure a reader sees: kept small). */
export function computeNetWorth(p: Prepared): NetWorthParts {
  const { input, book, holdings } = p;
  const base = input.base;
  const conv = makeConverter(book, base);
  const missing: MissingItem[] = [];
  const noValue: { id: string; name: string }[] = [];
  const holdingById = new Map(holdings.map((h) => [h.asset.id, h]));
  let assetsTotal = new Dec(0);
  let liabilitiesTotal = new Dec(0);
  let assetsCounted = 0;
  let liabilitiesCounted = 0;
  const assetValue = new Map<string, Dec>();
  const missingAsset = new Set<string>();

  for (const h of holdings) {
    // Sold or otherwise gone (holdings.ts): neither counted nor listed as without a value.
    if (h.disposedOn !== undefined) continue;
    const last = h.points[h.points.length - 1];
    if (!last) {
      noValue.push({ id: h.asset.id, name: h.asset.name });
      continue;
    }
    const amount = amountOf(last);
    const v = conv(amount, last.currency, input.today);
    if (v === null) {
      // Listed with its value's date (a rate of that date, or any before today, fills the gap).
      missing.push({ kind: "asset", id: h.asset.id, name: h.asset.name, amount: plain(amount), currency: last.currency, date: last.date, missing: conv.missingOf(last.currency, input.today) });
      missingAsset.add(h.asset.id);
      continue;
    }
    assetsTotal = assetsTotal.add(v);
    assetsCounted++;
    assetValue.set(h.asset.id, v);
  }

  const debtOf = new Map<string, Dec>();
  let untied = new Dec(0);
  let untiedCount = 0;
  for (const l of input.liabilities) {
    const tied = l.assetId !== undefined ? holdingById.get(l.assetId) : undefined;
    // Not owed yet (a mortgage signed for next month): the chart leaves it out too (history.ts).
    const amount = borneDebt(l, tied?.share, input.today);
    if (amount === null) continue;
    const v = conv(amount, l.currency, input.today);
    if (v === null) {
      missing.push({ kind: "liability", id: l.id, name: l.name, amount: plain(amount.neg()), currency: l.currency, date: input.today, missing: conv.missingOf(l.currency, input.today) });
      continue;
    }
    liabilitiesTotal = liabilitiesTotal.add(v);
    liabilitiesCounted++;
    // A debt of a sold asset is still owed until it is marked repaid: counted, with no asset (and so
    // no country) to belong to.
    if (tied && tied.disposedOn === undefined) debtOf.set(tied.asset.id, (debtOf.get(tied.asset.id) ?? new Dec(0)).add(v));
    else {
      untied = untied.add(v);
      untiedCount++;
    }
  }
  return {
    netWorth: {
      base,
      total: plain(assetsTotal.sub(liabilitiesTotal)),
      assets: plain(assetsTotal),
      liabilities: plain(liabilitiesTotal),
      assetsCounted,
      liabilitiesCounted,
      missing,
      noValue,
      oldestRateDate: conv.oldest,
      newestRateDate: conv.newest,
    },
    assetValue,
    missingAsset,
    debtOf,
    untied: { value: untied, count: untiedCount },
  };
}

/** Distribution (class, category) and diversification (the other dimensions) of the assets' values. */
export function computeDistribution(p: Prepared, parts: NetWorthParts): Record<DimensionId, Slice[]> {
  const { input, holdings } = p;
  const { assetValue, missingAsset, debtOf } = parts;
  const structureNames = new Map(input.structures.map((s) => [s.id, s.name]));
  const distribution = {} as Record<DimensionId, Slice[]>;
  for (const dimension of DIMENSIONS) {
    const groups = new Map<string, Acc>();
    for (const h of holdings) {
      const value = assetValue.get(h.asset.id);
      if (value === undefined && !missingAsset.has(h.asset.id)) continue;
      const key = sliceKey(dimension, h.asset, h.chain);
      let acc = groups.get(key);
      if (!acc) {
        const slice: Slice = { key, value: "0", net: "0", count: 0, missing: 0 };
        if (dimension === "class" || dimension === "category") {
          slice.classId = h.asset.classId;
          slice.classCode = h.asset.assetClass;
        }
        if (dimension === "category") slice.categoryCode = h.asset.category;
        if (dimension === "structure" && key !== "direct") slice.name = structureNames.get(key) ?? key;
        acc = { slice, value: new Dec(0), net: new Dec(0) };
        groups.set(key, acc);
      }
      acc.slice.count++;
      if (value === undefined) {
        acc.slice.missing++;
        continue;
      }
      acc.value = acc.value.add(value);
      const debt = debtOf.get(h.asset.id);
      if (debt) acc.net = acc.net.sub(debt);
    }
    // Shares are of what the positive groups hold (decision): a group worth less than nothing (an
    // overdrawn account, a short position) has no share, so the others' shares never pass 100 %
    // and the pie has no negative slice; its value is still in the table and the net worth.
    let sum = new Dec(0);
    for (const g of groups.values()) if (g.value.isPositive()) sum = sum.add(g.value);
    const slices = [...groups.values()].map((g) => {
      g.slice.value = plain(g.value);
      g.slice.net = plain(g.net.add(g.value));
      if (!sum.isZero() && !g.value.isNegative()) g.slice.share = plain(g.value.div(sum).toDecimalPlaces(12));
      return { slice: g.slice, value: g.value };
    });
    slices.sort((a, b) => b.value.cmp(a.value) || (a.slice.key < b.slice.key ? -1 : 1));
    distribution[dimension] = slices.map((x) => x.slice);
  }
  return distribution;
}

export function computeNow(p: Prepared): NowFigures {
  const parts = computeNetWorth(p);
  const perAsset: NowFigures["perAsset"] = {};
  for (const [id, value] of parts.assetValue) perAsset[id] = { value: plain(value), debt: plain(parts.debtOf.get(id) ?? new Dec(0)) };
  return {
    netWorth: parts.netWorth,
    distribution: computeDistribution(p, parts),
    untiedLiabilities: { value: plain(parts.untied.value), count: parts.untied.count },
    perAsset,
    hasRates: p.book.currencies().length > 0,
  };
}
