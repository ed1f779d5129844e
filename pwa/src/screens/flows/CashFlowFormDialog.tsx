// The new / edit cash-flow form: the shared schema's cashFlowSchema fields (name, in or out, amount
// with its currency, frequency, start and end dates, the asset it belongs to, notes), validated as
// one types with the schema's messages (an end date before the start date), saved with clientdb's
// saveCashFlow (one transaction; a tied asset is checked again there). Editing shows a value a
// concurrent edit replaced next to its field (the asset area's ConflictNote).
import { saveCashFlow, type ClientDb, type JsonValue } from "@patrimonio/clientdb";
import { CASH_FLOW_DIRECTIONS, CASH_FLOW_FREQUENCIES, cashFlowSchema, type CashFlow } from "@patrimonio/shared-schema";
import { useId, useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { linkableAssets } from "../../assets/disposal";
import type { AssetRec } from "../../assets/hooks";
import { FormError } from "../../forms/FormError";
import formStyles from "../../forms/form.module.css";
import { applyIssues, useSchemaForm } from "../../forms/schemaForm";
import { useFormatters } from "../../i18n/useFormatters";
import { localToday } from "../../time/localToday";
import { useEnumLabel, type CashFlowRec } from "../../liabilities/hooks";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Combobox } from "../../ui/Combobox";
import { DateInput } from "../../ui/DateInput";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { MoneyInput } from "../../ui/MoneyInput";
import { RadioGroup } from "../../ui/RadioGroup";
import { Select } from "../../ui/Select";
import { TextArea } from "../../ui/TextArea";
import { TextInput } from "../../ui/TextInput";
import { ConflictNote } from "../assets/common/ConflictNote";

export interface CashFlowValues {
  name: string;
  direction: string;
  amount: string;
  currency: string;
  frequency: string;
  startDate: string;
  endDate: string;
  assetId: string;
  notes: string;
}

const FIELDS: readonly (keyof CashFlowValues)[] = ["name", "direction", "amount", "currency", "frequency", "startDate", "endDate", "assetId", "notes"];

export function valuesOf(flow: CashFlowRec | undefined, asset?: AssetRec): CashFlowValues {
  const f = flow?.fields;
  return {
    name: f?.name ?? "",
    direction: f?.direction ?? "inflow",
    amount: f?.amount ?? "",
    currency: f?.currency ?? asset?.fields.currency ?? "EUR",
    frequency: f?.frequency ?? "monthly",
    startDate: f?.startDate ?? localToday(),
    endDate: f?.endDate ?? "",
    assetId: f?.assetId ?? asset?.id ?? "",
    notes: f?.notes ?? "",
  };
}

/** Trims the texts and leaves out what was left empty (optional fields absent; a required one gets
 * its "required" message). */
export function prepareCashFlow(values: CashFlowValues): CashFlowValues {
  const out: Record<string, string | undefined> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = typeof raw === "string" ? raw.trim() : raw;
    out[key] = value === "" ? undefined : value;
  }
  return out as unknown as CashFlowValues;
}

interface Props {
  db: ClientDb;
  workspaceId: string;
  assets: readonly AssetRec[];
  flow?: CashFlowRec | undefined;
  assetId?: string | undefined;
  onClose: () => void;
  onSaved: (id: string) => void;
}

export function CashFlowFormDialog({ db, workspaceId, assets, flow, assetId, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation();
  const fmt = useFormatters();
  const label = useEnumLabel();
  const formId = useId();
  const [other, setOther] = useState<string[]>([]);
  const preselected = assetId === undefined ? undefined : assets.find((a) => a.id === assetId);
  const form = useSchemaForm<typeof cashFlowSchema, CashFlowValues>(cashFlowSchema, {
    defaultValues: valuesOf(flow, preselected),
    prepare: prepareCashFlow,
    mode: "onTouched",
  });
  const { control, register, errorText } = form;
  // The values an edit opened with, cleaned as a submit cleans them: the save writes only the fields
  // changed since (another device may have changed the others meanwhile).
  const [opened] = useState(() => (flow ? (prepareCashFlow(valuesOf(flow)) as unknown as Partial<CashFlow>) : undefined));
  const directions = useMemo(() => CASH_FLOW_DIRECTIONS.map((d) => ({ value: d, label: label("cashFlowDirection", d) })), [label]);
  const frequencies = useMemo(() => CASH_FLOW_FREQUENCIES.map((f) => ({ value: f, label: label("cashFlowFrequency", f) })), [label]);
  const assetOptions = useMemo(
    () =>
      linkableAssets(assets, flow?.fields.assetId, assetId)
        .map((a) => ({ value: a.id, label: a.fields.name, hint: a.fields.currency }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [assets, flow, assetId],
  );
  const conflictFormat = (field: string) => (value: JsonValue) => {
    if (typeof value !== "string") return JSON.stringify(value);
    if (field === "direction") return label("cashFlowDirection", value);
    if (field === "frequency") return label("cashFlowFrequency", value);
    if (field === "assetId") return assets.find((a) => a.id === value)?.fields.name ?? value;
    if (field === "startDate" || field === "endDate") return fmt.date(value);
    if (field === "amount") return fmt.money(value, flow?.fields.currency ?? "EUR");
    return value;
  };
  const note = (field: keyof CashFlowValues) => (flow ? <ConflictNote recordId={flow.id} field={field} format={conflictFormat(field)} /> : null);

  const onSubmit = form.submit(async (values) => {
    setOther([]);
    const result = await saveCashFlow(db, workspaceId, values as unknown as CashFlow, flow?.id, opened);
    if (!result.ok) {
      setOther(applyIssues(i18n, form.setError, result.issues, FIELDS));
      return;
    }
    onSaved(result.id);
  });

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(open) => !open && onClose()}
      size="md"
      title={flow ? t("flows.form.editTitle") : t("flows.form.newTitle")}
      description={t("flows.form.description")}
      data-testid="flow-form"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")} data-testid="flow-save">
            {flow ? t("common.saveChanges") : t("flows.form.create")}
          </Button>
        </>
      }
    >
      <form id={formId} className={formStyles.form} noValidate onSubmit={onSubmit}>
        <Field label={t("flows.fields.name")} error={errorText("name")} required>
          <TextInput autoComplete="off" data-autofocus="" {...register("name")} />
        </Field>
        {note("name")}
        <Field label={t("flows.fields.direction")} error={errorText("direction")} required group>
          <Controller name="direction" control={control} render={({ field }) => <RadioGroup orientation="horizontal" options={directions} {...field} />} />
        </Field>
        {note("direction")}
        <div className={formStyles.grid}>
          <Field label={t("flows.fields.amount")} error={errorText("amount") ?? errorText("currency")} required>
            <Controller
              name="amount"
              control={control}
              render={({ field }) => (
                <Controller
                  name="currency"
                  control={control}
                  render={({ field: currency }) => (
                    <MoneyInput {...field} currency={currency.value} onCurrencyChange={currency.onChange} currencyLabel={t("flows.fields.currency")} />
                  )}
                />
              )}
            />
          </Field>
          <Field label={t("flows.fields.frequency")} error={errorText("frequency")} required>
            <Controller name="frequency" control={control} render={({ field }) => <Select options={frequencies} {...field} />} />
          </Field>
        </div>
        {note("amount")}
        {note("currency")}
        {note("frequency")}
        <div className={formStyles.grid}>
          <Field label={t("flows.fields.startDate")} error={errorText("startDate")} required>
            <Controller name="startDate" control={control} render={({ field }) => <DateInput {...field} />} />
          </Field>
          <Field label={t("flows.fields.endDate")} hint={t("flows.form.endHint")} error={errorText("endDate")}>
            <Controller name="endDate" control={control} render={({ field }) => <DateInput {...field} />} />
          </Field>
        </div>
        {note("startDate")}
        {note("endDate")}
        <Field label={t("flows.fields.assetId")} hint={t("flows.form.assetHint")} error={errorText("assetId")}>
          <Controller
            name="assetId"
            control={control}
            render={({ field }) => <Combobox options={assetOptions} placeholder={t("flows.form.noAsset")} emptyText={t("flows.form.noAssets")} {...field} />}
          />
        </Field>
        {note("assetId")}
        <Field label={t("flows.fields.notes")} error={errorText("notes")}>
          <TextArea rows={2} maxChars={500} {...register("notes")} />
        </Field>
        {note("notes")}
        <FormError form={form} />
        {other.length > 0 && <Alert tone="error">{other.join(" ")}</Alert>}
      </form>
    </Dialog>
  );
}
