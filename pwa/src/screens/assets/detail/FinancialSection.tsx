// Financial information: purchase value and date, current value and date, tax value (edited in a
// dialog, amounts in the asset's currency) and the valuation history.
import { Link } from "@tanstack/react-router";
import { FileUp, Pencil } from "lucide-react";
import { useCallback, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import formStyles from "../../../forms/form.module.css";
import { useFormatters } from "../../../i18n/useFormatters";
import { Button, buttonClass } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { DateInput } from "../../../ui/DateInput";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { MoneyInput } from "../../../ui/MoneyInput";
import { orNull, useAssetPatchForm } from "./assetForm";
import { useAssetDetail } from "./context";
import { Facts } from "./Facts";
import { FieldConflicts } from "./FieldConflicts";
import { IssueList } from "./IssueList";
import { ValuationHistory } from "./ValuationHistory";

const FINANCIAL_FIELDS = ["purchaseValue", "purchaseDate", "currentValue", "valuationDate", "taxValue"] as const;
type FinancialValues = Record<(typeof FINANCIAL_FIELDS)[number], string>;

export function FinancialSection() {
  const { t } = useTranslation();
  const { asset, canEdit } = useAssetDetail();
  const fmt = useFormatters();
  const [open, setOpen] = useState(false);
  const f = asset.fields;
  const none = t("assetDetail.value.empty");
  const money = (v: string | undefined) => (v === undefined ? none : fmt.money(v, f.currency));
  const date = (v: string | undefined) => (v === undefined ? none : fmt.date(v));
  return (
    <Card
      title={t("assetDetail.financial.title")}
      data-testid="section-financial"
      actions={
        canEdit && (
          <>
            {(f.assetClass === "bank_accounts" || f.assetClass === "investments") && (
              <Link to="/import" search={{ assetId: asset.id }} className={buttonClass({ variant: "ghost", size: "sm" })} data-testid="import-statement-link">
                <FileUp size={16} aria-hidden="true" />
                {t("assetDetail.financial.import")}
              </Link>
            )}
            <Button size="sm" variant="ghost" icon={<Pencil size={16} />} onClick={() => setOpen(true)}>
              {t("assetDetail.financial.edit")}
            </Button>
          </>
        )
      }
    >
      <Facts
        testId="financial"
        facts={[
          { id: "purchaseValue", label: t("assetDetail.fields.purchaseValue"), value: money(f.purchaseValue) },
          { id: "purchaseDate", label: t("assetDetail.fields.purchaseDate"), value: date(f.purchaseDate) },
          { id: "currentValue", label: t("assetDetail.fields.currentValue"), value: money(f.currentValue) },
          { id: "valuationDate", label: t("assetDetail.fields.valuationDate"), value: date(f.valuationDate) },
          { id: "taxValue", label: t("assetDetail.fields.taxValue"), value: money(f.taxValue) },
        ]}
      />
      <FieldConflicts fields={FINANCIAL_FIELDS} />
      <ValuationHistory />
      {open && <FinancialDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

/** Every asset has a current value and its date, so it counts in net worth (the add flow and the
 * kind dialog require them too): they can be changed here, not cleared. */
const REQUIRED: readonly (keyof FinancialValues)[] = ["currentValue", "valuationDate"];

export function FinancialDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const f = asset.fields;
  const toPatch = useCallback(
    (v: FinancialValues) => ({
      purchaseValue: orNull(v.purchaseValue),
      purchaseDate: orNull(v.purchaseDate),
      currentValue: orNull(v.currentValue),
      valuationDate: orNull(v.valuationDate),
      taxValue: orNull(v.taxValue),
    }),
    [],
  );
  const form = useAssetPatchForm<FinancialValues>({
    asset,
    defaultValues: {
      purchaseValue: f.purchaseValue ?? "",
      purchaseDate: f.purchaseDate ?? "",
      currentValue: f.currentValue ?? "",
      valuationDate: f.valuationDate ?? "",
      taxValue: f.taxValue ?? "",
    },
    toPatch,
    required: REQUIRED,
  });
  const moneyField = (name: "purchaseValue" | "currentValue" | "taxValue") => (
    <Field label={t(`assetDetail.fields.${name}`)} error={form.errorText(name)} required={REQUIRED.includes(name)}>
      <Controller
        control={form.control}
        name={name}
        render={({ field }) => <MoneyInput {...field} currency={f.currency} />}
      />
    </Field>
  );
  const dateField = (name: "purchaseDate" | "valuationDate") => (
    <Field label={t(`assetDetail.fields.${name}`)} hint={t("assetDetail.dateHint")} error={form.errorText(name)} required={REQUIRED.includes(name)}>
      <Controller control={form.control} name={name} render={({ field }) => <DateInput {...field} />} />
    </Field>
  );
  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      size="md"
      onOpenChange={(o) => !o && onClose()}
      title={t("assetDetail.financial.dialogTitle")}
      description={t("assetDetail.financial.currencyNote", { currency: f.currency })}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" form="asset-financial-form" loading={form.formState.isSubmitting}>
            {t("assetDetail.save")}
          </Button>
        </>
      }
    >
      <form id="asset-financial-form" className={formStyles.form} noValidate onSubmit={form.save(db, onClose)}>
        <div className={formStyles.grid}>
          {moneyField("purchaseValue")}
          {dateField("purchaseDate")}
          {moneyField("currentValue")}
          {dateField("valuationDate")}
          {moneyField("taxValue")}
        </div>
        <IssueList issues={form.otherIssues} />
      </form>
    </Dialog>
  );
}
