// The fields of the asset's kind that are set (real estate: area, year of construction, tax
// location…; vehicles: brand, model, mileage…; fixed income: ISIN, issuer, rate…), with their
// conflicts, and for editors "Edit" opening the add flow's form of the kind (kindEdit.ts): the same
// fields, inputs, required marks and schema messages; saved with updateAsset (one transaction).
import { updateAsset, type SyncedRecord } from "@patrimonio/clientdb";
import { Pencil } from "lucide-react";
import { useMemo, useState } from "react";
import type { Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { encodeMessage, useSchemaForm } from "../../../forms/schemaForm";
import { Alert } from "../../../ui/Alert";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import addStyles from "../add/AddAsset.module.css";
import { assetFormSchema, toAssetInput, type AssetFormValues, type AssetInput } from "../add/assetForm";
import { requiredFields, type FieldSpec } from "../add/catalogue";
import { FieldControl } from "../add/FieldControl";
import { TaxLocationFields } from "../add/TaxLocationFields";
import { useAssetDetail } from "./context";
import styles from "./detail.module.css";
import { KIND_FIELDS, KIND_GROUPS, setEntries } from "./detailModel";
import { Facts, type Fact } from "./Facts";
import { FieldConflicts } from "./FieldConflicts";
import { useEnumLabel, useFieldLabel, useValueText } from "./fieldText";
import { COMMON_EDITED, editedHeads, formValuesOf, kindDetailFields, kindOfAsset, kindPatch } from "./kindEdit";

export function KindFieldsSection({ structures }: { structures: SyncedRecord<"legalStructures">[] | undefined }) {
  const { t } = useTranslation();
  const { asset, canEdit } = useAssetDetail();
  const label = useFieldLabel();
  const enumLabel = useEnumLabel();
  const [open, setOpen] = useState(false);
  const names = useMemo(() => Object.fromEntries((structures ?? []).map((s) => [s.id, s.fields.name])), [structures]);
  const valueText = useValueText(asset.fields.currency, names);
  const fields = asset.fields as Record<string, unknown>;

  const top: Fact[] = KIND_FIELDS.filter((k) => fields[k] !== undefined).map((k) => ({ id: k, label: label(k), value: valueText(k, fields[k]) }));
  const groups = KIND_GROUPS.map((g) => ({ group: g, entries: setEntries(fields[g] as Record<string, unknown> | undefined) })).filter((g) => g.entries.length > 0);
  const empty = top.length === 0 && groups.length === 0;
  if (empty && !canEdit) return null;

  return (
    <Card
      title={t("assetDetail.kind.title")}
      description={t("assetDetail.kind.description")}
      data-testid="section-kind"
      actions={
        canEdit && (
          <Button size="sm" variant="ghost" icon={<Pencil size={16} />} onClick={() => setOpen(true)}>
            {t("assetDetail.kind.edit")}
          </Button>
        )
      }
    >
      {empty && <p className={styles.muted}>{t("assetDetail.kind.empty")}</p>}
      {top.length > 0 && <Facts testId="kind-fields" facts={top} />}
      {groups.map(({ group, entries }) => (
        <section key={group} className={styles.subsection} aria-label={enumLabel("assetGroup", group)}>
          <h3 className={styles.subheading}>{enumLabel("assetGroup", group)}</h3>
          <Facts testId={`kind-${group}`} facts={entries.map(([k, v]) => ({ id: `${group}-${k}`, label: label(k), value: valueText(k, v, group) }))} />
        </section>
      ))}
      <FieldConflicts fields={[...KIND_FIELDS, ...KIND_GROUPS]} names={names} />
      {open && <KindFieldsDialog onClose={() => setOpen(false)} />}
    </Card>
  );
}

/** Every error path of a react-hook-form errors tree ("vehicle.brand"). */
function errorPaths(errors: Record<string, unknown>, prefix = ""): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(errors)) {
    if (typeof v !== "object" || v === null || k === "ref") continue;
    if ("message" in v && "type" in v) out.push(prefix + k);
    else out.push(...errorPaths(v as Record<string, unknown>, `${prefix}${k}.`));
  }
  return out;
}

function KindFieldsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const label = useFieldLabel();
  const f = asset.fields;
  // The asset as the dialog opened: the save writes only what the reader changed since (another
  // device may have changed the rest meanwhile; kindPatch).
  const [opened] = useState(() => f);
  const kind = kindOfAsset(f);
  const target = useMemo(() => ({ kind, assetClass: f.assetClass, category: f.category }), [kind, f.assetClass, f.category]);
  const schema = useMemo(() => assetFormSchema(kind, f.category), [kind, f.category]);
  const required = useMemo(() => new Set(requiredFields(kind, f.category)), [kind, f.category]);
  const heads = useMemo(() => new Set(editedHeads(kind)), [kind]);
  const form = useSchemaForm<typeof schema, AssetFormValues>(schema, {
    defaultValues: formValuesOf(f, kind),
    prepare: (values) => toAssetInput(values, target),
    mode: "onTouched",
  });
  const errorText = (name: string) => form.errorText(name as Path<AssetFormValues>);
  const fieldOf = (spec: FieldSpec) => (
    <FieldControl
      key={spec.name}
      spec={spec}
      control={form.control}
      register={form.register}
      errorText={errorText}
      required={required.has(spec.name)}
      currency={f.currency}
    />
  );
  // Errors on fields this dialog does not show (the asset breaks a rule elsewhere): listed.
  const hidden = errorPaths(form.formState.errors as Record<string, unknown>).filter((p) => !heads.has(p.split(".")[0]!));

  const save = form.submit(async (values) => {
    const patch = kindPatch(f, values as AssetInput, kind, opened);
    if (Object.keys(patch).length === 0) return onClose();
    const result = await updateAsset(db, asset.id, patch as never);
    if (result.ok) return onClose();
    let first = true;
    for (const issue of result.issues) {
      form.setError(issue.path as Path<AssetFormValues>, { type: "server", message: encodeMessage(issue.key, issue.params) }, { shouldFocus: first });
      first = false;
    }
  });

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      size="lg"
      onOpenChange={(o) => !o && onClose()}
      title={t("assetDetail.kind.dialogTitle")}
      data-testid="kind-dialog"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" form="asset-kind-form" loading={form.formState.isSubmitting}>
            {t("assetDetail.save")}
          </Button>
        </>
      }
    >
      <form id="asset-kind-form" className={addStyles.form} noValidate onSubmit={save}>
        <div className={addStyles.grid}>{COMMON_EDITED.map(fieldOf)}</div>
        {kindDetailFields(kind).length > 0 && <div className={addStyles.grid}>{kindDetailFields(kind).map(fieldOf)}</div>}
        <fieldset className={styles.fieldset}>
          <legend>{t("assetAdd.sections.tax")}</legend>
          <div className={addStyles.grid}>
            <TaxLocationFields control={form.control} register={form.register} resetField={form.resetField} errorText={errorText} countryRequired={required.has("taxLocation.country")} />
          </div>
        </fieldset>
        {hidden.length > 0 && (
          <Alert tone="error" title={t("assetDetail.otherIssues")}>
            <ul>
              {hidden.map((p) => (
                <li key={p}>
                  {label(p.split(".")[0]!)}: {errorText(p)}
                </li>
              ))}
            </ul>
          </Alert>
        )}
      </form>
    </Dialog>
  );
}
