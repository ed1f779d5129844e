// One debt's payment plan (?show=<id>): the monthly payment (annuity), payments left, interest still
// to pay, the last payment's date, and the outstanding balance over time as a chart with its
// accessible table (per calendar year). Without a rate or an end date (or after the end date) it says
// why there is no plan. When the amount was typed on an earlier day, it says what is owed today and
// from what; it also says the plan assumes a constant payment (no interest-only, balloon or variable
// rate debts yet).
import { Link } from "@tanstack/react-router";
import { Pencil, Trash2, X } from "lucide-react";
import { lazy, Suspense, useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "../../i18n/useFormatters";
import { Dec } from "../../money";
import { yearlySchedule, type PlanResult } from "../../liabilities/amortization";
import type { LiabilityRec } from "../../liabilities/hooks";
import { amountAsOfOf } from "../../liabilities/listModel";
import { Button, buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Skeleton } from "../../ui/Skeleton";
import { Figures } from "./Figures";
import styles from "./liabilities.module.css";

const BalanceChart = lazy(() => import("./BalanceChart").then((m) => ({ default: m.BalanceChart })));

interface Props {
  liability: LiabilityRec;
  plan: PlanResult;
  /** What is owed today (listModel's rolled amount). */
  outstanding: string;
  canEdit: boolean;
  onDelete: () => void;
}

export function PlanCard({ liability, plan, outstanding, canEdit, onDelete }: Props) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const captionId = useId();
  const f = liability.fields;
  const years = useMemo(() => (plan.ok ? yearlySchedule(plan.schedule) : []), [plan]);
  const points = useMemo(
    () => (plan.ok ? [{ date: plan.anchor, balance: Number(plan.principal) }, ...plan.schedule.map((r) => ({ date: r.date, balance: Number(r.balance) }))] : []),
    [plan],
  );
  const money = (amount: string) => fmt.money(amount, f.currency);
  const asOf = amountAsOfOf(liability);
  const rolled = asOf !== undefined && !new Dec(outstanding).eq(f.amountOutstanding);

  return (
    <Card
      title={t("liabilities.plan.title", { name: f.name })}
      data-testid="liability-plan"
      data-liability-id={liability.id}
      actions={
        <div className={styles.planActions}>
          {canEdit && (
            <>
              <Link to="/liabilities" search={{ edit: liability.id }} className={buttonClass({ variant: "secondary", size: "sm" })} data-testid="plan-edit">
                <Pencil size={16} aria-hidden="true" /> {t("liabilities.actions.edit")}
              </Link>
              <Button variant="danger-outline" size="sm" icon={<Trash2 size={16} />} onClick={onDelete} data-testid="plan-delete">
                {t("liabilities.actions.delete")}
              </Button>
            </>
          )}
          <Link to="/liabilities" search={{}} aria-label={t("liabilities.plan.close")} className={buttonClass({ variant: "ghost", size: "sm" })}>
            <X size={16} aria-hidden="true" />
          </Link>
        </div>
      }
    >
      {rolled && (
        <p className={styles.muted} data-testid="plan-as-of">
          {t("liabilities.plan.asOf", { amount: money(outstanding), typed: money(f.amountOutstanding), date: fmt.date(asOf) })}
        </p>
      )}
      {!plan.ok ? (
        <p className={styles.muted} data-testid="plan-unavailable" data-reason={plan.reason}>
          {t(`liabilities.plan.reason.${plan.reason}`)}
        </p>
      ) : (
        <>
          <Figures
            testId="plan-figures"
            figures={[
              { id: "payment", label: t("liabilities.plan.payment"), value: money(plan.payment) },
              { id: "months", label: t("liabilities.plan.months"), value: fmt.number(plan.months) },
              { id: "interest", label: t("liabilities.plan.interest"), value: money(plan.totalInterest) },
              { id: "totalPaid", label: t("liabilities.plan.totalPaid"), value: money(plan.totalPaid) },
              { id: "last", label: t("liabilities.plan.last"), value: fmt.date(plan.schedule.at(-1)!.date) },
            ]}
          />
          <p className={styles.formula}>{t("liabilities.plan.formula")}</p>
          <p className={styles.formula} data-testid="plan-assumption">
            {t("liabilities.plan.assumption")}
          </p>
          <figure className={styles.chart} aria-describedby={captionId} data-testid="plan-chart">
            <Suspense fallback={<Skeleton shape="block" />}>
              <BalanceChart points={points} currency={f.currency} />
            </Suspense>
            <figcaption className={styles.muted}>{t("liabilities.plan.chartCaption")}</figcaption>
          </figure>
          <div className={styles.tableWrap} role="region" aria-labelledby={captionId} tabIndex={0}>
            <table className={styles.table} data-testid="plan-table">
              <caption id={captionId}>{t("liabilities.plan.tableCaption")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("liabilities.plan.year")}</th>
                  <th scope="col" className={styles.num}>
                    {t("liabilities.plan.paid")}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t("liabilities.plan.interestCol")}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t("liabilities.plan.principal")}
                  </th>
                  <th scope="col" className={styles.num}>
                    {t("liabilities.plan.balance")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {years.map((y) => (
                  <tr key={y.year} data-testid="plan-year">
                    <th scope="row">{y.year}</th>
                    <td className={styles.num}>{money(y.paid)}</td>
                    <td className={styles.num}>{money(y.interest)}</td>
                    <td className={styles.num}>{money(y.principal)}</td>
                    <td className={styles.num}>{money(y.balance)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </Card>
  );
}

