// The liabilities list: grouped by kind (the shared schema's order), totals per currency, and each
// debt's payment plan (amortization.ts) as of today. Every amount is the one owed today: the amount
// typed rolled forward from the day it was typed (`amountAsOf`, or for a debt saved before that field
// the day of its amountOutstanding stamp) by the payments due since. A debt that starts after today
// is listed but left out of the totals and the monthly payments (as on the dashboard and the asset
// page: figures/holdings.ts's borneDebt).
import { LIABILITY_KINDS } from "@patrimonio/shared-schema";
import { sumByCurrency, type MoneyTotals } from "../assets/money";
import { currencyDecimals } from "../ui/currency";
import { outstandingOn, paymentPlan, type DebtTerms, type PlanResult } from "./amortization";
import { localToday } from "../time/localToday";

export type LiabilityKind = (typeof LIABILITY_KINDS)[number];

export interface DebtLike {
  id: string;
  fields: {
    name: string;
    kind: LiabilityKind;
    amountOutstanding: string;
    currency: string;
    rate?: string | undefined;
    startDate?: string | undefined;
    endDate?: string | undefined;
    amountAsOf?: string | undefined;
  };
  /** The record's field stamps (clientdb's SyncedRecord): the amount's says when it was typed. */
  clocks?: Readonly<Record<string, string>> | undefined;
}

export interface DebtRow<T extends DebtLike> {
  record: T;
  plan: PlanResult;
  /** What is owed today (the amount typed less the payments due since). */
  outstanding: string;
  /** Starts after today: not counted in the totals yet. */
  notStarted: boolean;
}

export interface KindGroup<T extends DebtLike> {
  kind: LiabilityKind;
  rows: DebtRow<T>[];
  /** Outstanding per currency (debts that have started). */
  totals: MoneyTotals;
  /** Monthly payments per currency (debts with a plan that have started). */
  monthly: MoneyTotals;
}

export interface LiabilitiesModel<T extends DebtLike> {
  groups: KindGroup<T>[];
  totals: MoneyTotals;
  monthly: MoneyTotals;
  /** Debts that start after today, apart: their amounts per currency and how many. */
  notStarted: { totals: MoneyTotals; count: number };
  byId: Map<string, DebtRow<T>>;
}

const STAMP_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z-/;

/** The day the amount outstanding was true: the record's `amountAsOf`; for a debt saved before that
 * field, the local day of its amountOutstanding stamp (a clientdb/hlc.ts stamp begins with its UTC
 * wall time); undefined (today) when neither is known. */
export function amountAsOfOf(debt: Pick<DebtLike, "fields" | "clocks">): string | undefined {
  if (debt.fields.amountAsOf !== undefined) return debt.fields.amountAsOf;
  const stamp = debt.clocks?.amountOutstanding;
  if (stamp === undefined || !STAMP_TIME.test(stamp)) return undefined;
  const wall = new Date(stamp.slice(0, 24));
  return Number.isNaN(wall.getTime()) ? undefined : localToday(wall);
}

/** A debt's terms (what its schedule needs) with its as-of day worked out; plain data, so they also
 * go to the figures' worker. */
export function termsOf(debt: Pick<DebtLike, "fields" | "clocks">): DebtTerms {
  const { amountOutstanding, rate, startDate, endDate } = debt.fields;
  return { amountOutstanding, rate, startDate, endDate, amountAsOf: amountAsOfOf(debt) };
}

/** The plan of one debt as of `today`, rounded to its currency's decimals. */
export function planOf(debt: Pick<DebtLike, "fields" | "clocks">, today: string): PlanResult {
  return paymentPlan(termsOf(debt), today, currencyDecimals(debt.fields.currency));
}

/** What one debt owes on `date` (the amount typed less the payments due since it was typed). */
export function outstandingOf(debt: Pick<DebtLike, "fields" | "clocks">, date: string): string {
  return outstandingOn(termsOf(debt), date, currencyDecimals(debt.fields.currency));
}

function monthlyOf<T extends DebtLike>(rows: DebtRow<T>[]): MoneyTotals {
  return sumByCurrency(rows.filter((r) => !r.notStarted).map((r) => ({ amount: r.plan.ok ? r.plan.payment : undefined, currency: r.record.fields.currency })));
}

function totalsOf<T extends DebtLike>(rows: DebtRow<T>[]): MoneyTotals {
  return sumByCurrency(rows.filter((r) => !r.notStarted).map((r) => ({ amount: r.outstanding, currency: r.record.fields.currency })));
}

/** Groups in LIABILITY_KINDS order (empty kinds left out), rows by name within a group. */
export function liabilitiesModel<T extends DebtLike>(records: readonly T[], today: string, collator: Intl.Collator): LiabilitiesModel<T> {
  const rows = records.map(
    (record): DebtRow<T> => ({
      record,
      plan: planOf(record, today),
      outstanding: outstandingOf(record, today),
      notStarted: record.fields.startDate !== undefined && record.fields.startDate > today,
    }),
  );
  const groups: KindGroup<T>[] = [];
  for (const kind of LIABILITY_KINDS) {
    const inKind = rows.filter((r) => r.record.fields.kind === kind).sort((a, b) => collator.compare(a.record.fields.name, b.record.fields.name));
    if (inKind.length === 0) continue;
    groups.push({
      kind,
      rows: inKind,
      totals: totalsOf(inKind),
      monthly: monthlyOf(inKind),
    });
  }
  const later = rows.filter((r) => r.notStarted);
  return {
    groups,
    totals: totalsOf(rows),
    monthly: monthlyOf(rows),
    notStarted: { totals: sumByCurrency(later.map((r) => ({ amount: r.outstanding, currency: r.record.fields.currency }))), count: later.length },
    byId: new Map(rows.map((r) => [r.record.id, r])),
  };
}
