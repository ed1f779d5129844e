// The plain inputs and outputs of the dashboard figures: structured-clone friendly (strings and
// numbers only), so the same data goes to a Web Worker unchanged. Money is decimal strings.
import type { DebtTerms } from "../liabilities/amortization";
import type { EurRate, Period, Unavailable } from "../money";

export interface FigAsset {
  id: string;
  name: string;
  /** Class code (real_estate…) and its route id (1–8). */
  assetClass: string;
  classId: number;
  category: string;
  /** The category's route id (class*100+n, admin ≥ 1000000, custom class*100+99), when known. */
  categoryId?: number | undefined;
  currency: string;
  participation?: string | undefined;
  legalStructureId?: string | undefined;
  currentValue?: string | undefined;
  valuationDate?: string | undefined;
  purchaseValue?: string | undefined;
  purchaseDate?: string | undefined;
  taxCountry?: string | undefined;
  noTaxRegistration?: boolean | undefined;
  risk?: number | undefined;
  liquidity?: number | undefined;
  institution?: string | undefined;
  /** Sold, given away or otherwise gone on `date` (holdings.ts): out of net worth from that day on;
   * `amount` (the whole asset's, in `currency`) is the money taken out of its returns. */
  disposal?: FigDisposal | undefined;
}

export interface FigDisposal {
  kind: "sold" | "gifted" | "other";
  date: string;
  amount?: string | undefined;
}

export interface FigStructure {
  id: string;
  name: string;
  parentStructureId?: string | undefined;
  ownershipPercentage?: string | undefined;
}

export interface FigValuation {
  assetId: string;
  date: string;
  value: string;
  currency: string;
}

export interface FigLiability {
  id: string;
  name: string;
  /** What is owed today: the amount typed less the payments due since (liabilities/listModel's
   * outstandingOf). */
  amountOutstanding: string;
  /** The debt's terms as typed (liabilities/amortization.ts) and its currency's decimals: a past
   * date of the net worth chart owes what the debt's schedule gives on that date (from the day the
   * amount was true; before it, the amount typed). Absent: `amountOutstanding` on every date. */
  terms?: { debt: DebtTerms; decimals: number } | undefined;
  currency: string;
  assetId?: string | undefined;
  /** From this date on the debt counts in past net worth (absent: always). */
  startDate?: string | undefined;
}

/** A cash flow of the synced cashFlows collection tied to an asset (the others are not an asset's
 * return). */
export interface FigCashFlow {
  assetId: string;
  direction: "inflow" | "outflow";
  /** Each occurrence's amount, positive, in `currency`. */
  amount: string;
  currency: string;
  frequency: "once" | "daily" | "weekly" | "monthly" | "quarterly" | "annual";
  startDate: string;
  endDate?: string | undefined;
}

export interface FiguresInput {
  base: string;
  /** The day the figures are for (YYYY-MM-DD, the reader's local date). */
  today: string;
  assets: readonly FigAsset[];
  structures: readonly FigStructure[];
  valuations: readonly FigValuation[];
  liabilities: readonly FigLiability[];
  /** Cash flows tied to assets: contributions and withdrawals of the returns (absent: none). */
  cashFlows?: readonly FigCashFlow[];
  /** Server rates and the workspace's manual rates (source "manual"). */
  rates: readonly EurRate[];
  manualRates: readonly EurRate[];
}

/** An amount that could not be converted to the base currency (left out of the total). */
export interface MissingItem {
  kind: "asset" | "liability";
  id: string;
  name: string;
  /** The amount in its own currency (the person's share; negative for a debt). */
  amount: string;
  currency: string;
  date: string;
  /** The currencies without a rate on or before the date. */
  missing: string[];
}

export interface NetWorth {
  base: string;
  /** Assets' look-through values − liabilities, in base, unrounded decimal string. */
  total: string;
  assets: string;
  liabilities: string;
  /** Assets and liabilities counted. */
  assetsCounted: number;
  liabilitiesCounted: number;
  /** Left out: no rate. */
  missing: MissingItem[];
  /** Assets without any value (no current value, no valuation): not counted, listed. */
  noValue: { id: string; name: string }[];
  oldestRateDate: string | null;
  newestRateDate: string | null;
}

export type Change =
  | { ok: true; from: string; previous: string; change: string; /** fraction, absent when previous is 0 */ percent?: string; incomplete: boolean }
  | { ok: false; reason: "noHistory" };

export interface HistoryPoint {
  date: string;
  total: string;
  /** Items left out of that point for a missing rate. */
  missing: number;
}

export type DimensionId = "class" | "category" | "currency" | "country" | "liquidity" | "risk" | "institution" | "structure";

export interface Slice {
  /** The group's key: a class id, a category id, a currency code, a country code, "1"–"5",
   * an institution name, a structure id; "none" = no tax registration, "unknown" = not given,
   * "direct" = held without a structure. */
  key: string;
  /** For class/category slices: the class code (the label), and the category code. */
  classId?: number;
  classCode?: string;
  categoryCode?: string;
  /** Display name when the key is not enough (structure name, institution). */
  name?: string;
  /** Sum in base (assets' look-through values; liabilities tied to its assets subtracted only in `net`). */
  value: string;
  /** value / Σ values of the dimension, a fraction; absent when the total is 0. */
  share?: string;
  /** value − liabilities tied to its assets (the map's colour). */
  net: string;
  count: number;
  /** Assets of the group left out for a missing rate. */
  missing: number;
}

export type ReturnFigure =
  | {
      ok: true;
      value: string;
      approximate?: boolean;
      /** Money-weighted only: an annual rate (true) or the return over a period shorter than a year (false). */
      annualized?: boolean;
      /** Money-weighted only: another rate also balances the cash flows (the one nearest 0 % is given). */
      multipleRoots?: boolean;
    }
  | { ok: false; reason: Unavailable };

export interface ReturnRow {
  kind: "asset" | "class" | "structure";
  id: string;
  name: string;
  /** The holding's own currency (assets; classes and structures: the base currency at constant
   * exchange rates of the period's end). */
  currency: string;
  periods: Record<
    Period,
    {
      /** In the asset's currency (or at constant exchange rates for a group). */
      local: { simple: ReturnFigure; twr: ReturnFigure; mwr: ReturnFigure };
      /** In the base currency, each value converted at its own date. */
      base: { simple: ReturnFigure; twr: ReturnFigure; mwr: ReturnFigure };
      /** FX effect on the time-weighted return: base − local (fraction). */
      fx: ReturnFigure;
    }
  >;
}

export interface NowFigures {
  netWorth: NetWorth;
  distribution: Record<DimensionId, Slice[]>;
  /** Liabilities not tied to an asset (they belong to no country): in base, and count. */
  untiedLiabilities: { value: string; count: number };
  /** Per asset (counted ones): value in base of the person's share, and the tied debts in base. */
  perAsset: Record<string, { value: string; debt: string }>;
  /** Whether the book had any rate at all (the "no rates yet" empty state). */
  hasRates: boolean;
}

export interface HistoryFigures {
  series: HistoryPoint[];
  change: { "1M": Change; "1Y": Change };
  returns: ReturnRow[];
  /** Per-asset returns were computed (only for workspaces up to ASSET_RETURNS_LIMIT assets). */
  assetReturns: boolean;
}
