// Associated debt: the liabilities tied to the asset (add: amount and creditor, in the asset's
// currency, or the full debt form of /liabilities with the asset chosen; list, each linked to its
// page there: edit for editors, its plan for viewers; total) and the net equity by the dashboard's
// rule (detailModel's debtFigures): the value of the person's share through the legal structures −
// the same share of the debts, in the asset's currency (decimal.js, exact).
import type { SyncedRecord } from "@patrimonio/clientdb";
import { liabilityShape } from "@patrimonio/shared-schema";
import { Link } from "@tanstack/react-router";
import { Plus } from "lucide-react";
import { useId, useMemo } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import formStyles from "../../../forms/form.module.css";
import { trimFields, useSchemaForm, encodeMessage } from "../../../forms/schemaForm";
import { useFormatters } from "../../../i18n/useFormatters";
import { outstandingOf } from "../../../liabilities/listModel";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { Field } from "../../../ui/Field";
import { MoneyInput } from "../../../ui/MoneyInput";
import { TextInput } from "../../../ui/TextInput";
import { useAssetDetail } from "./context";
import { useAssetDebts } from "./data";
import styles from "./detail.module.css";
import { localToday } from "../../../time/localToday";
import { debtFigures } from "./detailModel";
import { Facts } from "./Facts";
import { ScrollRegion } from "../../../ui/ScrollRegion";

/** A debt typed in the form: the liability schema's amount and creditor (both required here). */
const debtFormSchema = z.strictObject({
  amountOutstanding: z.string().min(1).pipe(liabilityShape.amountOutstanding),
  creditorName: liabilityShape.creditorName.unwrap(),
});

export function DebtSection({ structures }: { structures: SyncedRecord<"legalStructures">[] | undefined }) {
  const { t } = useTranslation();
  const { db, asset, canEdit, canManage } = useAssetDetail();
  const fmt = useFormatters();
  const debts = useAssetDebts(asset.workspaceId, asset.id);
  const tableCaptionId = useId();
  const f = asset.fields;
  const links = useMemo(() => (structures ?? []).map((s) => ({ id: s.id, parentStructureId: s.fields.parentStructureId, ownershipPercentage: s.fields.ownershipPercentage })), [structures]);
  const today = localToday();
  // Each debt at what is owed today (the amount typed less the payments due since).
  const figures = debtFigures((debts ?? []).map((d) => ({ ...d.fields, amountOutstanding: outstandingOf(d, today) })), f, links, today);
  const partial = figures.sharePercent !== "100";
  const form = useSchemaForm(debtFormSchema, {
    defaultValues: { amountOutstanding: "", creditorName: "" },
    prepare: trimFields("creditorName"),
  });

  const submit = form.submit(async (values) => {
    const result = await db.create("liabilities", asset.workspaceId, {
      name: values.creditorName,
      kind: "loan",
      creditorName: values.creditorName,
      amountOutstanding: values.amountOutstanding,
      currency: f.currency,
      assetId: asset.id,
    });
    if (result.ok) {
      form.reset({ amountOutstanding: "", creditorName: "" });
      return;
    }
    for (const issue of result.issues) {
      const name = issue.path === "name" ? "creditorName" : issue.path;
      if (name === "amountOutstanding" || name === "creditorName") form.setError(name, { type: "schema", message: encodeMessage(issue.key, issue.params) });
    }
  });

  return (
    <Card title={t("assetDetail.debt.title")} data-testid="section-debt">
      {canEdit && (
        <form className={formStyles.inline} noValidate onSubmit={submit} data-testid="debt-form">
          <Field label={t("assetDetail.debt.amount")} error={form.errorText("amountOutstanding")} required>
            <Controller control={form.control} name="amountOutstanding" render={({ field }) => <MoneyInput {...field} currency={f.currency} />} />
          </Field>
          <Field label={t("assetDetail.debt.creditor")} error={form.errorText("creditorName")} required>
            <TextInput {...form.register("creditorName")} autoComplete="off" />
          </Field>
          <Button type="submit" variant="secondary" icon={<Plus size={16} />} loading={form.formState.isSubmitting}>
            {t("assetDetail.debt.add")}
          </Button>
        </form>
      )}
      {canEdit && (
        <p className={styles.muted}>
          <Link to="/liabilities" search={{ new: 1, assetId: asset.id }} data-testid="debt-full-form">
            {t("assetDetail.debt.fullForm")}
          </Link>
        </p>
      )}
      {debts !== undefined && debts.length === 0 && <p className={styles.muted}>{t("assetDetail.debt.empty")}</p>}
      {debts !== undefined && debts.length > 0 && (
        <ScrollRegion className={styles.tableWrap}>
          <table className={styles.table} data-testid="debt-table">
            <caption id={tableCaptionId}>{t("assetDetail.debt.tableCaption", { count: debts.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("assetDetail.debt.creditor")}</th>
                <th scope="col" className={styles.num}>
                  {t("assetDetail.debt.amount")}
                </th>
              </tr>
            </thead>
            <tbody>
              {debts.map((d) => (
                <tr key={d.id} data-testid="debt-row">
                  <td>
                    {canManage ? (
                      <Link to="/liabilities" search={{ edit: d.id }} aria-label={t("assetDetail.debt.editLink", { name: d.fields.creditorName ?? d.fields.name })}>
                        {d.fields.creditorName ?? d.fields.name}
                      </Link>
                    ) : (
                      <Link to="/liabilities" search={{ show: d.id }}>
                        {d.fields.creditorName ?? d.fields.name}
                      </Link>
                    )}
                  </td>
                  <td className={styles.num}>{fmt.money(outstandingOf(d, today), d.fields.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <Facts
        testId="debt-figures"
        facts={[
          { id: "debtTotal", label: t("assetDetail.debt.total"), value: fmt.money(figures.total, f.currency) },
          ...(partial ? [{ id: "debtShare", label: t("assetDetail.debt.yourShare"), value: fmt.money(figures.debtShare, f.currency) }] : []),
          {
            id: "participationValue",
            label: t("assetDetail.debt.participationValue"),
            value: figures.value === undefined ? t("assetDetail.value.empty") : fmt.money(figures.value, f.currency),
          },
          {
            id: "netEquity",
            label: t("assetDetail.debt.netEquity"),
            value: figures.netEquity === undefined ? t("assetDetail.debt.noValue") : fmt.money(figures.netEquity, f.currency),
          },
        ]}
      />
      {partial && (
        <p className={styles.muted} data-testid="debt-share-rule">
          {t("assetDetail.debt.shareRule", { share: fmt.percent(figures.sharePercent, { maximumFractionDigits: 4 }) })}
        </p>
      )}
      {figures.notStarted.length > 0 && (
        <p className={styles.muted}>
          {t("assetDetail.debt.notStarted", {
            list: figures.notStarted.map((o) => fmt.money(o.total, o.currency)).join(" · "),
          })}
        </p>
      )}
      {figures.otherCurrencies.length > 0 && (
        <p className={styles.muted}>
          {t("assetDetail.debt.otherCurrencies", {
            list: figures.otherCurrencies.map((o) => fmt.money(o.total, o.currency)).join(" · "),
          })}
        </p>
      )}
    </Card>
  );
}
