// The new / edit debt form: the shared schema's liabilitySchema fields (name, kind, creditor, amount
// outstanding with its currency and the day it was true (today unless changed; changing the amount
// moves it back to today), annual rate, start and end dates, the asset it is tied to), validated
// as one types with the schema's messages (e.g. an end date before the start date), saved with
// clientdb's saveLiability (one transaction; a tied asset is checked again there). Editing shows a
// value a concurrent edit replaced next to its field (the asset area's ConflictNote).
import { saveLiability, type ClientDb, type JsonValue } from "@patrimonio/clientdb";
import { LIABILITY_KINDS, liabilitySchema, type Liability } from "@patrimonio/shared-schema";
import { useId, useMemo, useRef, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { linkableAssets } from "../../assets/disposal";
import type { AssetRec } from "../../assets/hooks";
import { FormError } from "../../forms/FormError";
import formStyles from "../../forms/form.module.css";
import { applyIssues, useSchemaForm } from "../../forms/schemaForm";
import { useFormatters } from "../../i18n/useFormatters";
import { localToday } from "../../time/localToday";
import type { LiabilityRec } from "../../liabilities/hooks";
import { useEnumLabel } from "../../liabilities/hooks";
import { amountAsOfOf } from "../../liabilities/listModel";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Combobox } from "../../ui/Combobox";
import { DateInput } from "../../ui/DateInput";
import { PercentInput } from "../../ui/DecimalInput";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { MoneyInput } from "../../ui/MoneyInput";
import { Select } from "../../ui/Select";
import { TextInput } from "../../ui/TextInput";
import { ConflictNote } from "../assets/common/ConflictNote";

/** The form's values: every field a string ("" = empty). */
export interface LiabilityValues {
  name: string;
  kind: string;
  creditorName: string;
  amountOutstanding: string;
  currency: string;
  amountAsOf: string;
  rate: string;
  startDate: string;
  endDate: string;
  assetId: string;
}

const FIELDS: readonly (keyof LiabilityValues)[] = ["name", "kind", "creditorName", "amountOutstanding", "currency", "amountAsOf", "rate", "startDate", "endDate", "assetId"];

/** The form's values; the amount's day is the record's (or its amount's stamp day), else `today`. */
export function valuesOf(liability: LiabilityRec | undefined, assetId?: string, currency = "EUR", today = localToday()): LiabilityValues {
  const f = liability?.fields;
  return {
    name: f?.name ?? "",
    kind: f?.kind ?? "mortgage",
    creditorName: f?.creditorName ?? "",
    amountOutstanding: f?.amountOutstanding ?? "",
    currency: f?.currency ?? currency,
    amountAsOf: (liability && amountAsOfOf(liability)) ?? today,
    rate: f?.rate ?? "",
    startDate: f?.startDate ?? "",
    endDate: f?.endDate ?? "",
    assetId: f?.assetId ?? assetId ?? "",
  };
}

/** Trims the texts and leaves out what was left empty (the schema wants optional fields absent, and
 * an absent required field gets its "required" message). */
export function prepareLiability(values: LiabilityValues): LiabilityValues {
  const out: Record<string, string | undefined> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = typeof raw === "string" ? raw.trim() : raw;
    out[key] = value === "" ? undefined : value;
  }
  return out as unknown as LiabilityValues;
}

interface Props {
  db: ClientDb;
  workspaceId: string;
  assets: readonly AssetRec[];
  /** The debt to edit; undefined for a new one. */
  liability?: LiabilityRec | undefined;
  /** For a new debt: the asset chosen beforehand (from the asset's page). */
  assetId?: string | undefined;
  onClose: () => void;
  onSaved: (id: string) => void;
}

export function LiabilityFormDialog({ db, workspaceId, assets, liability, assetId, onClose, onSaved }: Props) {
  const { t, i18n } = useTranslation();
  const fmt = useFormatters();
  const label = useEnumLabel();
  const formId = useId();
  const [other, setOther] = useState<string[]>([]);
  const preselected = assetId === undefined ? undefined : assets.find((a) => a.id === assetId);
  const form = useSchemaForm<typeof liabilitySchema, LiabilityValues>(liabilitySchema, {
    defaultValues: valuesOf(liability, preselected?.id, preselected?.fields.currency),
    prepare: prepareLiability,
    mode: "onTouched",
  });
  const { control, register, errorText } = form;
  // The values an edit opened with, cleaned as a submit cleans them: the save writes only the fields
  // changed since (another device may have changed the others meanwhile).
  const [opened] = useState(() => (liability ? (prepareLiability(valuesOf(liability)) as unknown as Partial<Liability>) : undefined));
  // A new amount is today's unless the person dates it otherwise.
  const asOfChosen = useRef(false);
  const amountTyped = () => {
    if (!asOfChosen.current) form.setValue("amountAsOf", localToday());
  };
  const kinds = useMemo(() => LIABILITY_KINDS.map((k) => ({ value: k, label: label("liabilityKind", k) })), [label]);
  const assetOptions = useMemo(
    () =>
      linkableAssets(assets, liability?.fields.assetId, assetId)
        .map((a) => ({ value: a.id, label: a.fields.name, hint: a.fields.currency }))
        .sort((a, b) => a.label.localeCompare(b.label)),
    [assets, liability, assetId],
  );
  const assetName = (id: string) => assets.find((a) => a.id === id)?.fields.name ?? id;
  const conflictFormat = (field: string) => (value: JsonValue) => {
    if (typeof value !== "string") return JSON.stringify(value);
    if (field === "kind") return label("liabilityKind", value);
    if (field === "assetId") return assetName(value);
    if (field === "startDate" || field === "endDate" || field === "amountAsOf") return fmt.date(value);
    if (field === "amountOutstanding") return fmt.money(value, liability?.fields.currency ?? "EUR");
    if (field === "rate") return fmt.percent(value);
    return value;
  };
  const note = (field: keyof LiabilityValues) =>
    liability ? <ConflictNote recordId={liability.id} field={field} format={conflictFormat(field)} /> : null;

  const onSubmit = form.submit(async (values) => {
    setOther([]);
    const result = await saveLiability(db, workspaceId, values as unknown as Liability, liability?.id, opened);
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
      title={liability ? t("liabilities.form.editTitle") : t("liabilities.form.newTitle")}
      description={t("liabilities.form.description")}
      data-testid="liability-form"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")} data-testid="liability-save">
            {liability ? t("common.saveChanges") : t("liabilities.form.create")}
          </Button>
        </>
      }
    >
      <form id={formId} className={formStyles.form} noValidate onSubmit={onSubmit}>
        <Field label={t("liabilities.fields.name")} error={errorText("name")} required>
          <TextInput autoComplete="off" data-autofocus="" {...register("name")} />
        </Field>
        {note("name")}
        <div className={formStyles.grid}>
          <Field label={t("liabilities.fields.kind")} error={errorText("kind")} required>
            <Controller name="kind" control={control} render={({ field }) => <Select options={kinds} {...field} />} />
          </Field>
          <Field label={t("liabilities.fields.creditorName")} error={errorText("creditorName")}>
            <TextInput autoComplete="off" {...register("creditorName")} />
          </Field>
        </div>
        {note("kind")}
        {note("creditorName")}
        <Field label={t("liabilities.fields.amountOutstanding")} hint={t("liabilities.form.amountHint")} error={errorText("amountOutstanding") ?? errorText("currency")} required>
          <Controller
            name="amountOutstanding"
            control={control}
            render={({ field }) => (
              <Controller
                name="currency"
                control={control}
                render={({ field: currency }) => (
                  <MoneyInput
                    {...field}
                    onChange={(value) => {
                      if (value !== field.value) amountTyped();
                      field.onChange(value);
                    }}
                    currency={currency.value}
                    onCurrencyChange={currency.onChange}
                    currencyLabel={t("liabilities.fields.currency")}
                  />
                )}
              />
            )}
          />
        </Field>
        {note("amountOutstanding")}
        {note("currency")}
        <Field label={t("liabilities.fields.amountAsOf")} hint={t("liabilities.form.amountAsOfHint")} error={errorText("amountAsOf")}>
          <Controller
            name="amountAsOf"
            control={control}
            render={({ field }) => (
              <DateInput
                {...field}
                onChange={(value) => {
                  asOfChosen.current = true;
                  field.onChange(value);
                }}
              />
            )}
          />
        </Field>
        {note("amountAsOf")}
        <div className={formStyles.grid}>
          <Field label={t("liabilities.fields.rate")} hint={t("liabilities.form.rateHint")} error={errorText("rate")}>
            <Controller name="rate" control={control} render={({ field }) => <PercentInput allowNegative maxDecimals={4} {...field} />} />
          </Field>
          <Field label={t("liabilities.fields.assetId")} hint={t("liabilities.form.assetHint")} error={errorText("assetId")}>
            <Controller
              name="assetId"
              control={control}
              render={({ field }) => (
                <Combobox options={assetOptions} placeholder={t("liabilities.form.noAsset")} emptyText={t("liabilities.form.noAssets")} {...field} />
              )}
            />
          </Field>
          <Field label={t("liabilities.fields.startDate")} error={errorText("startDate")}>
            <Controller name="startDate" control={control} render={({ field }) => <DateInput {...field} />} />
          </Field>
          <Field label={t("liabilities.fields.endDate")} hint={t("liabilities.form.endHint")} error={errorText("endDate")}>
            <Controller name="endDate" control={control} render={({ field }) => <DateInput {...field} />} />
          </Field>
        </div>
        {note("rate")}
        {note("assetId")}
        {note("startDate")}
        {note("endDate")}
        <FormError form={form} />
        {other.length > 0 && <Alert tone="error">{other.join(" ")}</Alert>}
      </form>
    </Dialog>
  );
}
