// The workspace's manual exchange rates (the synced collection fxRates): a person types the rate of
// a currency on a date (a bank's receipt, a day or a currency no source publishes; on a plane,
// offline) and every figure uses it at once: on its date it wins over the server's rate
// (pwa/src/money/rates.ts). Written the ECB's way: units of the currency worth 1 EUR. Owners and
// editors add and delete them; viewers read them with the reason.
import { fxRateShape } from "@patrimonio/shared-schema";
import { useClientDb, useRecords } from "@patrimonio/clientdb";
import { Plus, Trash2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import formStyles from "../../forms/form.module.css";
import { encodeMessage, useSchemaForm } from "../../forms/schemaForm";
import { formatDate, formatNumber } from "../../i18n/format";
import { useLanguage } from "../../i18n/useLanguage";
import { farFromPublished, type FoundRate } from "../../money/rates";
import { useRateBook } from "../../money/useRateBook";
import { Alert } from "../../ui/Alert";
import { Button, IconButton } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Combobox } from "../../ui/Combobox";
import { CURRENCY_CODES, currencyName } from "../../ui/currency";
import { DateInput } from "../../ui/DateInput";
import { DecimalInput } from "../../ui/DecimalInput";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";
import styles from "./Dashboard.module.css";
import { localToday } from "../../time/localToday";
import { ScrollRegion } from "../../ui/ScrollRegion";

/** The form: the schema's fields; empty ones are "required". */
const rateFormSchema = z.strictObject({
  currency: z.string().min(1).pipe(fxRateShape.currency),
  date: z.string().min(1).pipe(fxRateShape.date),
  perEur: z.string().min(1).pipe(fxRateShape.perEur),
  note: z.string().pipe(z.string().max(500)),
});

export interface RatePrefill {
  currency: string;
  date: string;
  /** Bumped on each request, so the same prefill can be asked twice. */
  at: number;
}

export function ManualRates({ workspaceId, canEdit, readOnlyReason, prefill }: { workspaceId: string | undefined; canEdit: boolean; readOnlyReason: string | null; prefill: RatePrefill | null }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const db = useClientDb();
  const rates = useRecords("fxRates", workspaceId);
  const [failed, setFailed] = useState(false);
  const currencyRef = useRef<HTMLDivElement>(null);
  const options = useMemo(() => CURRENCY_CODES.filter((c) => c !== "EUR").map((code) => ({ value: code, label: currencyName(code, language), hint: code })), [language]);
  const empty = { currency: "", date: localToday(), perEur: "", note: "" };
  const form = useSchemaForm(rateFormSchema, { defaultValues: empty });
  const typed = form.watch(["currency", "date", "perEur"]);
  const published = useKnownRate(workspaceId, typed[0], typed[1]);
  // A rate far from the last one known (a separator misread: "1.085" is 1085 in Spanish) is added
  // only when the same value is added a second time, after the warning.
  const far = published && typed[2] ? farFromPublished(typed[2], published.perEur) : undefined;
  const farKey = far === undefined ? undefined : typed.join("|");
  const [warned, setWarned] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (!prefill) return;
    form.reset({ ...empty, currency: prefill.currency, date: prefill.date });
    currencyRef.current?.scrollIntoView({ block: "center" });
    currencyRef.current?.querySelector("input")?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when a new prefill is asked
  }, [prefill?.at]);

  const submit = form.submit(async (values) => {
    setFailed(false);
    if (!db || !workspaceId) return;
    if (farKey !== undefined && warned !== farKey) {
      setWarned(farKey);
      return;
    }
    const result = await db.create("fxRates", workspaceId, { currency: values.currency, date: values.date, perEur: values.perEur, ...(values.note.trim() ? { note: values.note.trim() } : {}) });
    if (result.ok) {
      form.reset({ ...empty, currency: values.currency });
      return;
    }
    let placed = false;
    for (const issue of result.issues) {
      const name = issue.path.replace(/^fxRate\./, "");
      if (name === "currency" || name === "date" || name === "perEur" || name === "note") {
        form.setError(name, { type: "schema", message: encodeMessage(issue.key, issue.params) });
        placed = true;
      }
    }
    if (!placed) setFailed(true);
  });

  const sorted = useMemo(() => [...(rates ?? [])].sort((a, b) => (a.fields.date < b.fields.date ? 1 : a.fields.date > b.fields.date ? -1 : a.fields.currency.localeCompare(b.fields.currency))), [rates]);

  return (
    <Card title={t("money.manual.title")} description={t("money.manual.description")} data-testid="manual-rates">
      {canEdit ? (
        <form className={formStyles.inline} noValidate onSubmit={submit} data-testid="manual-rate-form">
          <div ref={currencyRef}>
            <Field label={t("money.manual.currency")} error={form.errorText("currency")} required>
              <Controller control={form.control} name="currency" render={({ field }) => <Combobox options={options} value={field.value} onChange={(v) => field.onChange(v ?? "")} onBlur={field.onBlur} name={field.name} data-testid="manual-rate-currency" />} />
            </Field>
          </div>
          <Field label={t("money.manual.date")} error={form.errorText("date")} required>
            <Controller control={form.control} name="date" render={({ field }) => <DateInput {...field} />} />
          </Field>
          <Field label={t("money.manual.perEur")} hint={t("money.manual.perEurHint")} error={form.errorText("perEur")} required>
            <Controller control={form.control} name="perEur" render={({ field }) => <DecimalInput {...field} maxDecimals={10} data-testid="manual-rate-value" />} />
          </Field>
          <Field label={t("money.manual.note")} error={form.errorText("note")}>
            <TextInput {...form.register("note")} maxLength={500} />
          </Field>
          {farKey !== undefined && warned === farKey && published && (
            <Alert tone="warning" title={t("money.manual.farTitle")}>
              {t("money.manual.far", {
                published: formatNumber(published.perEur.toFixed(), language, { maximumFractionDigits: 10 }),
                currency: published.currency,
                date: formatDate(published.date, language),
                source: t(`money.rateSource.${published.source === "ecb" || published.source === "manual" ? published.source : "frankfurter"}`),
                // Ungrouped: the warning shows how "1.085" was read (1085), unlike what was typed.
                typed: formatNumber(typed[2], language, { maximumFractionDigits: 10, useGrouping: false }),
              })}
            </Alert>
          )}
          <Button type="submit" variant="secondary" icon={<Plus size={16} />} loading={form.formState.isSubmitting}>
            {farKey !== undefined && warned === farKey ? t("money.manual.addAnyway") : t("money.manual.add")}
          </Button>
        </form>
      ) : (
        readOnlyReason && <p className={styles.muted}>{readOnlyReason}</p>
      )}
      {failed && <p role="alert">{t("money.manual.failed")}</p>}
      {rates !== undefined && sorted.length === 0 ? (
        <p className={styles.muted}>{t("money.manual.empty")}</p>
      ) : (
        <ScrollRegion className={styles.tableWrap}>
          <table className={styles.table} data-testid="manual-rates-table">
            <caption className={styles.caption}>{t("money.manual.caption")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("money.manual.date")}</th>
                <th scope="col">{t("money.manual.currency")}</th>
                <th scope="col" className={styles.num}>{t("money.manual.perEur")}</th>
                <th scope="col">{t("money.manual.note")}</th>
                {canEdit && (
                  <th scope="col">
                    <span className={styles.srOnly}>{t("money.manual.actions")}</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {sorted.map((r) => (
                <tr key={r.id} data-currency={r.fields.currency} data-date={r.fields.date}>
                  <td>{formatDate(r.fields.date, language)}</td>
                  <td>
                    {r.fields.currency} <span className={styles.muted}>({t("money.rateSource.manual")})</span>
                  </td>
                  <td className={styles.num}>{formatNumber(r.fields.perEur, language, { maximumFractionDigits: 10 })}</td>
                  <td>{r.fields.note ?? ""}</td>
                  {canEdit && (
                    <td>
                      <IconButton
                        size="sm"
                        label={t("money.manual.delete", { currency: r.fields.currency, date: formatDate(r.fields.date, language) })}
                        icon={<Trash2 size={16} />}
                        onClick={() => void db?.delete("fxRates", r.id)}
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Card>
  );
}

/** The rate of a currency on a date, or the closest before it, that the device knows (the server's
 * or one typed in this workspace); undefined when it knows none, or while loading. */
function useKnownRate(workspaceId: string | undefined, currency: string, date: string): FoundRate | undefined {
  const currencies = useMemo(() => (currency ? [currency] : []), [currency]);
  const book = useRateBook(workspaceId, currencies);
  return useMemo(() => (book && currency && date ? book.rateOn(currency, date) : undefined), [book, currency, date]);
}
