// "Sale or disposal" on the asset page. A held asset offers "Mark as sold": a dialog with the app's
// form pattern (disposalForm.ts: the shared schema's formats and messages, plus not after today and
// not before the purchase) that writes the asset's one `disposal` field (updateAsset: device
// database and outbox, so it works offline and syncs as an ordinary field edit). A disposed asset
// shows how and when it left, for how much, its debts still owed, and "Undo sale" (clears the field).
import { updateAsset } from "@patrimonio/clientdb";
import { DISPOSAL_KINDS, DISPOSAL_NOTE_MAX, type Disposal } from "@patrimonio/shared-schema";
import { HandCoins, Undo2 } from "lucide-react";
import { useId, useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { disposalStatusKey } from "../../../assets/disposal";
import { FormError } from "../../../forms/FormError";
import formStyles from "../../../forms/form.module.css";
import { encodeMessage, useSchemaForm } from "../../../forms/schemaForm";
import { SCHEMA_NAMESPACE } from "../../../i18n/i18n";
import { useFormatters } from "../../../i18n/useFormatters";
import { useToday } from "../../../liabilities/useToday";
import { notify } from "../../../toast/toast";
import { Alert } from "../../../ui/Alert";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { DateInput } from "../../../ui/DateInput";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { MoneyInput } from "../../../ui/MoneyInput";
import { RadioGroup } from "../../../ui/RadioGroup";
import { TextArea } from "../../../ui/TextArea";
import { useAssetDetail } from "./context";
import { useAssetDebts } from "./data";
import styles from "./detail.module.css";
import { disposalFormSchema, disposalFormValues, type DisposalFormValues } from "./disposalForm";
import { Facts } from "./Facts";
import { FieldConflicts } from "./FieldConflicts";
import { IssueList } from "./IssueList";

/** The sentence at the top of a disposed asset's page ("Vendido el 15/01/2025 por 260.000,00 €…"). */
export function useDisposalSentence(): string | undefined {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const { asset } = useAssetDetail();
  const d = asset.fields.disposal;
  if (!d) return undefined;
  const status = t(disposalStatusKey(asset.fields) as never);
  const date = fmt.date(d.date);
  return d.amount !== undefined
    ? t("assetDetail.disposal.bannerAmount", { status, date, amount: fmt.money(d.amount, asset.fields.currency) })
    : t("assetDetail.disposal.banner", { status, date });
}

export function DisposalSection() {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const { db, asset, canManage } = useAssetDetail();
  const debts = useAssetDebts(asset.workspaceId, asset.id)?.length ?? 0;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const disposal = asset.fields.disposal;
  const name = asset.fields.name;

  async function undo() {
    setBusy(true);
    setFailed(false);
    try {
      const result = await updateAsset(db, asset.id, { disposal: null });
      if (!result.ok) setFailed(true);
      else notify("success", t("assetDetail.disposal.undone", { name }));
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  if (!disposal) {
    if (!canManage) return null;
    return (
      <Card title={t("assetDetail.disposal.title")} description={t("assetDetail.disposal.description")} data-testid="section-disposal">
        <Button variant="secondary" icon={<HandCoins size={16} />} onClick={() => setOpen(true)} data-testid="disposal-mark">
          {t("assetDetail.disposal.mark")}
        </Button>
        {open && <DisposalDialog onClose={() => setOpen(false)} />}
        <FieldConflicts fields={DISPOSAL_FIELD} whileDisposed />
      </Card>
    );
  }

  const facts = [
    { id: "disposal-status", label: t("assetDetail.disposal.kind"), value: t(disposalStatusKey(asset.fields) as never) },
    { id: "disposal-date", label: t("assetDetail.disposal.date"), value: fmt.date(disposal.date) },
    ...(disposal.amount !== undefined
      ? [{ id: "disposal-amount", label: t(disposal.kind === "sold" ? "assetDetail.disposal.amount" : "assetDetail.disposal.amountOther"), value: fmt.money(disposal.amount, asset.fields.currency) }]
      : []),
  ];
  return (
    <Card title={t("assetDetail.disposal.title")} data-testid="section-disposal">
      <Facts facts={facts} testId="disposal-facts" />
      {disposal.note !== undefined && <p className={styles.muted}>{t("assetDetail.disposal.noteLabel", { note: disposal.note })}</p>}
      {debts > 0 && (
        <Alert tone="warning">
          <span data-testid="disposal-debts">{t("assetDetail.disposal.debts", { count: debts })}</span>
        </Alert>
      )}
      {canManage && (
        <Button variant="secondary" icon={<Undo2 size={16} />} onClick={() => void undo()} loading={busy} data-testid="disposal-undo">
          {t("assetDetail.disposal.undo")}
        </Button>
      )}
      {failed && <Alert tone="error">{t("assetDetail.disposal.failed")}</Alert>}
      <FieldConflicts fields={DISPOSAL_FIELD} whileDisposed />
    </Card>
  );
}

/** A concurrent edit of the sale on another device (sync/MERGE.md): shown here, restorable. */
const DISPOSAL_FIELD = ["disposal"] as const;

const FIELDS: readonly (keyof DisposalFormValues)[] = ["kind", "date", "amount", "note"];

function DisposalDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const fmt = useFormatters();
  const { db, asset } = useAssetDetail();
  const today = useToday();
  const formId = useId();
  const f = asset.fields;
  const [otherIssues, setOtherIssues] = useState<Parameters<typeof IssueList>[0]["issues"]>([]);
  // The dialog mounts on each opening: today and the purchase date are read then.
  const [schema] = useState(() => disposalFormSchema(today, f.purchaseDate));
  const form = useSchemaForm<typeof schema, DisposalFormValues>(schema, { defaultValues: disposalFormValues(today), mode: "onTouched" });
  const { control, errorText } = form;
  const kind = form.watch("kind");
  const kinds = useMemo(
    () => DISPOSAL_KINDS.map((k) => ({ value: k, label: t(`labels.disposalKind.${k}` as never, { ns: SCHEMA_NAMESPACE }) as string })),
    [t],
  );

  const onSubmit = form.submit(async (disposal: Disposal) => {
    setOtherIssues([]);
    const result = await updateAsset(db, asset.id, { disposal });
    if (!result.ok) {
      const rest = [];
      let first = true;
      for (const issue of result.issues) {
        const name = issue.path.replace(/^disposal\./, "");
        if ((FIELDS as readonly string[]).includes(name)) {
          form.setError(name as keyof DisposalFormValues, { type: "device", message: encodeMessage(issue.key, issue.params) }, { shouldFocus: first });
          first = false;
        } else rest.push(issue);
      }
      setOtherIssues(rest);
      return;
    }
    notify("success", t("assetDetail.disposal.saved", { name: f.name, date: fmt.date(disposal.date) }));
    onClose();
  });

  return (
    <Dialog
      open
      dirty={form.formState.isDirty}
      onOpenChange={(next) => !next && onClose()}
      size="md"
      title={t("assetDetail.disposal.formTitle", { name: f.name })}
      description={t("assetDetail.disposal.formDescription")}
      data-testid="disposal-form"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")} data-testid="disposal-save">
            {t("assetDetail.disposal.save")}
          </Button>
        </>
      }
    >
      <form id={formId} className={formStyles.form} noValidate onSubmit={onSubmit}>
        <Field label={t("assetDetail.disposal.kind")} error={errorText("kind")} required group>
          <Controller name="kind" control={control} render={({ field }) => <RadioGroup options={kinds} {...field} />} />
        </Field>
        <div className={formStyles.grid}>
          <Field label={t("assetDetail.disposal.date")} hint={t("assetDetail.disposal.dateHint")} error={errorText("date")} required>
            <Controller name="date" control={control} render={({ field }) => <DateInput data-autofocus="" {...field} />} />
          </Field>
          <Field
            label={t(kind === "sold" ? "assetDetail.disposal.amount" : "assetDetail.disposal.amountOther")}
            hint={kind === "sold" ? t("assetDetail.disposal.amountHint", { currency: f.currency }) : t("assetDetail.disposal.amountOtherHint")}
            error={errorText("amount")}
            required={kind === "sold"}
          >
            <Controller name="amount" control={control} render={({ field }) => <MoneyInput {...field} currency={f.currency} />} />
          </Field>
        </div>
        <Field label={t("assetDetail.disposal.note")} error={errorText("note")}>
          <TextArea maxChars={DISPOSAL_NOTE_MAX} rows={3} {...form.register("note")} />
        </Field>
        <IssueList issues={otherIssues} />
        <FormError form={form} />
      </form>
    </Dialog>
  );
}
