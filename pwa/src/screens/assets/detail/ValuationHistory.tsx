// The valuation history of an asset: add a dated valuation (the newest one becomes the asset's
// current value and valuation date, in one transaction), the list as a table (also the accessible
// alternative of the chart) and a small line chart (recharts; hidden from assistive technology,
// which reads the table).
import { addValuation } from "@patrimonio/clientdb";
import { valuationShape } from "@patrimonio/shared-schema";
import { Plus, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import * as z from "zod";
import formStyles from "../../../forms/form.module.css";
import { encodeMessage, useSchemaForm } from "../../../forms/schemaForm";
import { useFormatters } from "../../../i18n/useFormatters";
import { Button, IconButton } from "../../../ui/Button";
import { DateInput } from "../../../ui/DateInput";
import { Field } from "../../../ui/Field";
import { MoneyInput } from "../../../ui/MoneyInput";
import { useAssetDetail } from "./context";
import { useAssetValuations } from "./data";
import styles from "./detail.module.css";
import { localToday } from "../../../time/localToday";
import { IssueList } from "./IssueList";
import { ScrollRegion } from "../../../ui/ScrollRegion";

/** A dated value typed in the form: the valuation schema's date and value (empty: "required"). */
const valuationFormSchema = z.strictObject({
  date: z.string().min(1).pipe(valuationShape.date),
  value: z.string().min(1).pipe(valuationShape.value),
});

export function ValuationHistory() {
  const { t } = useTranslation();
  const { db, asset, canEdit } = useAssetDetail();
  const fmt = useFormatters();
  const valuations = useAssetValuations(asset.workspaceId, asset.id);
  const headingId = useId();
  const tableCaptionId = useId();
  const currency = asset.fields.currency;
  const [otherIssues, setOtherIssues] = useState<Parameters<typeof IssueList>[0]["issues"]>([]);
  const form = useSchemaForm(valuationFormSchema, { defaultValues: { date: localToday(), value: "" } });

  const submit = form.submit(async (values) => {
    setOtherIssues([]);
    const result = await addValuation(db, asset.id, values);
    if (result.ok) {
      form.reset({ date: localToday(), value: "" });
      return;
    }
    const rest = [];
    for (const issue of result.issues) {
      const name = issue.path.replace(/^valuation\./, "");
      if (name === "date" || name === "value") form.setError(name, { type: "schema", message: encodeMessage(issue.key, issue.params) });
      else rest.push(issue);
    }
    setOtherIssues(rest);
  });

  const data = (valuations ?? []).filter((v) => v.fields.currency === currency).map((v) => ({ date: v.fields.date, value: Number(v.fields.value) }));

  return (
    <section className={styles.subsection} aria-labelledby={headingId} data-testid="valuation-history">
      <h3 id={headingId} className={styles.subheading}>
        {t("assetDetail.valuations.title")}
      </h3>
      {canEdit && (
        <form className={formStyles.inline} noValidate onSubmit={submit} data-testid="valuation-form">
          <Field label={t("assetDetail.valuations.date")} error={form.errorText("date")} required>
            <Controller control={form.control} name="date" render={({ field }) => <DateInput {...field} />} />
          </Field>
          <Field label={t("assetDetail.valuations.value")} error={form.errorText("value")} required>
            <Controller control={form.control} name="value" render={({ field }) => <MoneyInput {...field} currency={currency} />} />
          </Field>
          <Button type="submit" variant="secondary" icon={<Plus size={16} />} loading={form.formState.isSubmitting}>
            {t("assetDetail.valuations.add")}
          </Button>
        </form>
      )}
      <IssueList issues={otherIssues} />
      {valuations === undefined ? null : valuations.length === 0 ? (
        <p className={styles.muted}>{t("assetDetail.valuations.empty")}</p>
      ) : (
        <>
          {data.length >= 2 && (
            <figure className={styles.chart} aria-describedby={tableCaptionId} data-testid="valuation-chart">
              <div aria-hidden="true" className={styles.chartBox}>
                <ResponsiveContainer width="100%" height={180}>
                  <LineChart data={data} margin={{ top: 8, right: 16, bottom: 0, left: 8 }} accessibilityLayer={false}>
                    <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
                    <XAxis dataKey="date" tickFormatter={(d: string) => fmt.date(d, { month: "short", year: "2-digit" })} stroke="var(--text-secondary)" fontSize={12} />
                    <YAxis
                      width={72}
                      tickFormatter={(v: number) => fmt.number(v, { notation: "compact", maximumFractionDigits: 1 })}
                      stroke="var(--text-secondary)"
                      fontSize={12}
                    />
                    <Tooltip
                      formatter={(v) => fmt.money(String(v), currency)}
                      labelFormatter={(d) => fmt.date(String(d))}
                      contentStyle={{ background: "var(--surface)", border: "1px solid var(--border)", color: "var(--text)" }}
                    />
                    <Line type="monotone" dataKey="value" stroke="var(--accent)" strokeWidth={2} dot={{ r: 3 }} isAnimationActive={false} />
                  </LineChart>
                </ResponsiveContainer>
              </div>
              <figcaption className={styles.muted}>{t("assetDetail.valuations.chartCaption")}</figcaption>
            </figure>
          )}
          <ScrollRegion className={styles.tableWrap}>
            <table className={styles.table} data-testid="valuation-table">
              <caption id={tableCaptionId}>{t("assetDetail.valuations.tableCaption", { count: valuations.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("assetDetail.valuations.date")}</th>
                  <th scope="col" className={styles.num}>
                    {t("assetDetail.valuations.value")}
                  </th>
                  {canEdit && (
                    <th scope="col">
                      <span className={styles.srOnly}>{t("assetDetail.actions")}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {[...valuations].reverse().map((v) => (
                  <tr key={v.id} data-testid="valuation-row">
                    <td>{fmt.date(v.fields.date)}</td>
                    <td className={styles.num}>{fmt.money(v.fields.value, v.fields.currency)}</td>
                    {canEdit && (
                      <td className={styles.rowActions}>
                        <IconButton
                          size="sm"
                          label={t("assetDetail.valuations.delete", { date: fmt.date(v.fields.date) })}
                          icon={<Trash2 size={16} />}
                          onClick={() => void db.delete("valuations", v.id)}
                        />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        </>
      )}
    </section>
  );
}
