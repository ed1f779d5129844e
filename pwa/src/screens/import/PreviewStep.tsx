// The preview of a read statement: account, institution, period, balances; the movements (those
// already imported into the chosen asset marked), the end-of-day balances that become valuations
// (new, already there, replacing a day, negative), and the monthly recurring movements the person
// may keep as cash flows.
import type { BalancePlan } from "@patrimonio/clientdb";
import { useTranslation } from "react-i18next";
import type { RecurringMovement } from "../../import/derive";
import type { Movement, Statement } from "../../import/types";
import { useFormatters } from "../../i18n/useFormatters";
import { Badge } from "../../ui/Badge";
import { Card } from "../../ui/Card";
import { Checkbox } from "../../ui/Checkbox";
import { DataTable, type DataTableColumn } from "../../ui/DataTable";
import { Facts } from "../assets/detail/Facts";
import styles from "./import.module.css";
import { ScrollRegion } from "../../ui/ScrollRegion";

export interface PreviewProps {
  statement: Statement;
  period: { from?: string; to?: string };
  known: ReadonlySet<string>;
  plans: readonly BalancePlan[];
  recurring: readonly RecurringMovement[];
  chosenFlows: ReadonlySet<number>;
  existingFlows: ReadonlySet<number>;
  onToggleFlow: (index: number, on: boolean) => void;
}

const PLAN_TONE = { create: "success", update: "accent", duplicate: "neutral", negative: "warning" } as const;
const PLAN_LABEL = {
  create: "statementImport.preview.plan.create",
  update: "statementImport.preview.plan.update",
  duplicate: "statementImport.preview.plan.duplicate",
  negative: "statementImport.preview.plan.negative",
} as const;

export function PreviewStep({ statement, period, known, plans, recurring, chosenFlows, existingFlows, onToggleFlow }: PreviewProps) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const ccy = statement.currency;
  const none = t("assetDetail.value.empty");
  const duplicates = statement.movements.filter((m) => known.has(m.id)).length;

  const columns: DataTableColumn<Movement>[] = [
    { id: "date", header: t("statementImport.preview.date"), width: "120px", sortValue: (m) => m.bookingDate, cell: (m) => fmt.date(m.bookingDate) },
    { id: "description", header: t("statementImport.preview.description"), width: "minmax(200px, 3fr)", sortValue: (m) => m.description, cell: (m) => <span className={styles.cellText}>{m.description}</span> },
    { id: "amount", header: t("statementImport.preview.amount"), align: "end", sortType: "decimal", sortValue: (m) => m.amount, cell: (m) => fmt.money(m.amount, ccy) },
    {
      id: "status",
      header: t("statementImport.preview.status"),
      width: "minmax(140px, 1fr)",
      sortValue: (m) => (known.has(m.id) ? 1 : 0),
      cell: (m) =>
        known.has(m.id) ? (
          <Badge tone="neutral" data-testid="movement-duplicate">
            {t("statementImport.preview.duplicate")}
          </Badge>
        ) : (
          <Badge tone="success">{t("statementImport.preview.new")}</Badge>
        ),
    },
  ];

  return (
    <>
      <Card title={t("statementImport.preview.title")} data-testid="import-preview" data-step-focus="" tabIndex={-1}>
        <Facts
          testId="import-facts"
          facts={[
            { id: "account", label: t("statementImport.preview.account"), value: statement.accountMasked || none },
            { id: "institution", label: t("statementImport.preview.institution"), value: statement.institution ?? none },
            { id: "currency", label: t("statementImport.preview.currency"), value: ccy },
            { id: "period", label: t("statementImport.preview.period"), value: period.from && period.to ? t("statementImport.preview.periodValue", { from: fmt.date(period.from), to: fmt.date(period.to) }) : none },
            { id: "opening", label: t("statementImport.preview.opening"), value: statement.opening ? `${fmt.money(statement.opening.amount, ccy)} · ${fmt.date(statement.opening.date)}` : none },
            { id: "closing", label: t("statementImport.preview.closing"), value: statement.closing ? `${fmt.money(statement.closing.amount, ccy)} · ${fmt.date(statement.closing.date)}` : none },
            { id: "movements", label: t("statementImport.preview.movements"), value: t("statementImport.preview.movementsValue", { count: statement.movements.length, duplicates }) },
          ]}
        />
      </Card>
      <Card title={t("statementImport.preview.balancesTitle")} description={t("statementImport.preview.balancesDescription")}>
        {plans.length === 0 ? (
          <p className={styles.muted} data-testid="import-no-balances">
            {t("statementImport.preview.noBalances")}
          </p>
        ) : (
          <ScrollRegion className={styles.tableWrap}>
            <table className={styles.table} data-testid="import-balances">
              <caption className="visually-hidden">{t("statementImport.preview.balancesTitle")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("statementImport.preview.date")}</th>
                  <th scope="col" className={styles.num}>
                    {t("statementImport.preview.balance")}
                  </th>
                  <th scope="col">{t("statementImport.preview.status")}</th>
                </tr>
              </thead>
              <tbody>
                {plans.map((p) => (
                  <tr key={p.balance.date} data-plan={p.kind}>
                    <td>{fmt.date(p.balance.date)}</td>
                    <td className={styles.num}>{fmt.money(p.balance.amount, ccy)}</td>
                    <td>
                      <Badge tone={PLAN_TONE[p.kind]}>{t(PLAN_LABEL[p.kind])}</Badge>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </Card>
      <Card title={t("statementImport.preview.movementsTitle")}>
        <DataTable
          label={t("statementImport.preview.movementsTitle")}
          rows={statement.movements}
          columns={columns}
          rowKey={(m) => m.id}
          height={440}
          data-testid="import-movements"
        />
      </Card>
      <Card title={t("statementImport.preview.recurringTitle")} description={t("statementImport.preview.recurringDescription")} data-testid="import-recurring">
        {recurring.length === 0 ? (
          <p className={styles.muted}>{t("statementImport.preview.noRecurring")}</p>
        ) : (
          <ul className={styles.flowList}>
            {recurring.map((r, i) => (
              <li key={r.movementIds.join()}>
                <Checkbox
                  label={r.name}
                  description={
                    <>
                      {t(r.direction === "inflow" ? "statementImport.preview.recurringIn" : "statementImport.preview.recurringOut", {
                        amount: fmt.money(r.amount, ccy),
                        count: r.count,
                        from: fmt.date(r.startDate),
                      })}
                      {existingFlows.has(i) && (
                        <>
                          {" "}
                          <Badge tone="neutral">{t("statementImport.preview.flowExists")}</Badge>
                        </>
                      )}
                    </>
                  }
                  checked={chosenFlows.has(i)}
                  disabled={existingFlows.has(i)}
                  onCheckedChange={(c) => onToggleFlow(i, c)}
                  data-testid="import-flow"
                />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
