// The liabilities list: grouped by kind (the shared schema's order), totals per currency, and each
// debt's payment plan (amortization.ts) as of today.
import { LIABILITY_KINDS } from "@patrimonio/shared-schema";
import { sumByCurrency, type MoneyTotals } from "../assets/money";
import { currencyDecimals } from "../ui/currency";
import { paymentPlan, type PlanResult } from "./amortization";

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
  };
}

export interface DebtRow<T extends DebtLike> {
  record: T;
  plan: PlanResult;
}

export interface KindGroup<T extends DebtLike> {
  kind: LiabilityKind;
  rows: DebtRow<T>[];
  /** Outstanding per currency. */
  totals: MoneyTotals;
  /** Monthly payments per currency (debts with a plan only). */
  monthly: MoneyTotals;
}

export interface LiabilitiesModel<T extends DebtLike> {
  groups: KindGroup<T>[];
  totals: MoneyTotals;
  monthly: MoneyTotals;
  byId: Map<string, DebtRow<T>>;
}

/** The plan of one debt as of `today`, rounded to its currency's decimals. */
export function planOf(fields: DebtLike["fields"], today: string): PlanResult {
  return paymentPlan(fields, today, currencyDecimals(fields.currency));
}

function monthlyOf<T extends DebtLike>(rows: DebtRow<T>[]): MoneyTotals {
  return sumByCurrency(rows.map((r) => ({ amount: r.plan.ok ? r.plan.payment : undefined, currency: r.record.fields.currency })));
}

/** Groups in LIABILITY_KINDS order (empty kinds left out), rows by name within a group. */
export function liabilitiesModel<T extends DebtLike>(records: readonly T[], today: string, collator: Intl.Collator): LiabilitiesModel<T> {
  const rows = records.map((record) => ({ record, plan: planOf(record.fields, today) }));
  const groups: KindGroup<T>[] = [];
  for (const kind of LIABILITY_KINDS) {
    const inKind = rows.filter((r) => r.record.fields.kind === kind).sort((a, b) => collator.compare(a.record.fields.name, b.record.fields.name));
    if (inKind.length === 0) continue;
    groups.push({
      kind,
      rows: inKind,
      totals: sumByCurrency(inKind.map((r) => ({ amount: r.record.fields.amountOutstanding, currency: r.record.fields.currency }))),
      monthly: monthlyOf(inKind),
    });
  }
  return {
    groups,
    totals: sumByCurrency(rows.map((r) => ({ amount: r.record.fields.amountOutstanding, currency: r.record.fields.currency }))),
    monthly: monthlyOf(rows),
    byId: new Map(rows.map((r) => [r.record.id, r])),
  };
}
