// Adding or editing a beneficiary: the shared schema's fields and rules, and the allocations with the
// ownership rule's message under each as it is typed (over 100 %: "exceeds 100 %"; under: how much is
// left), counting every other beneficiary's allocation of the same asset. The save
// (clientdb saveBeneficiary) checks the sum again across records and refuses it with the same message.
import { saveBeneficiary, type EntityOf } from "@patrimonio/clientdb";
import { ALLOCATIONS_MAX, allocationSchema, beneficiaryShape, RELATIONSHIPS } from "@patrimonio/shared-schema";
import { Plus, Trash2 } from "lucide-react";
import { useMemo, useState } from "react";
import { Controller, useFieldArray, type Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { linkableAssets } from "../../assets/disposal";
import type { BeneficiaryRec } from "../../estate/hooks";
import { allocationMessage, sumWith, ESTATE } from "../../estate/readiness";
import formStyles from "../../forms/form.module.css";
import { encodeMessage, useSchemaForm } from "../../forms/schemaForm";
import { Button, IconButton } from "../../ui/Button";
import { PercentInput } from "../../ui/DecimalInput";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { NativeSelect } from "../../ui/NativeSelect";
import { TextArea } from "../../ui/TextArea";
import { TextInput } from "../../ui/TextInput";
import styles from "./beneficiaries.module.css";
import { useEstate } from "./context";
import { useMessage, useSchemaLabel } from "./labels";

/** The target picker's value for the whole estate (asset ids are UUIDs). */
const WHOLE_ESTATE = "estate";

const blank = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim()) : v);

const beneficiaryFormSchema = z
  .strictObject({
    name: z.preprocess(blank, beneficiaryShape.name),
    relationship: z.preprocess(blank, beneficiaryShape.relationship),
    email: z.preprocess(blank, beneficiaryShape.email),
    phone: z.preprocess(blank, beneficiaryShape.phone),
    address: z.preprocess(blank, beneficiaryShape.address),
    notes: z.preprocess(blank, beneficiaryShape.notes),
    allocations: z
      .array(z.strictObject({ target: z.preprocess(blank, z.string()), percentage: z.preprocess(blank, allocationSchema.shape.percentage) }))
      .max(ALLOCATIONS_MAX),
  })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.allocations.forEach((a, i) => {
      if (seen.has(a.target)) ctx.addIssue({ code: "custom", path: ["allocations", i, "target"], message: encodeMessage("validation.beneficiary.duplicateAllocation") });
      seen.add(a.target);
    });
  });

interface BeneficiaryValues {
  name: string;
  relationship: string;
  email: string;
  phone: string;
  address: string;
  notes: string;
  allocations: { target: string; percentage: string }[];
}

type Out = z.output<typeof beneficiaryFormSchema>;

function toFields(v: Out): EntityOf<"beneficiaries"> {
  const fields: EntityOf<"beneficiaries"> = { name: v.name, relationship: v.relationship };
  if (v.email) fields.email = v.email;
  if (v.phone) fields.phone = v.phone;
  if (v.address) fields.address = v.address;
  if (v.notes) fields.notes = v.notes;
  if (v.allocations.length > 0) {
    fields.allocations = v.allocations.map((a) => (a.target === WHOLE_ESTATE ? { percentage: a.percentage } : { assetId: a.target, percentage: a.percentage }));
  }
  return fields;
}

/** A command issue's path ("allocations.1.assetId") as the form's field ("allocations.1.target"). */
function formPath(path: string): string {
  return path.replace(/^allocations\.(\d+)\.assetId$/, "allocations.$1.target");
}

export function BeneficiaryDialog({ record, onClose }: { record?: BeneficiaryRec | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const label = useSchemaLabel();
  const { db, workspaceId, assets } = useEstate();
  const f = record?.fields;
  const form = useSchemaForm<typeof beneficiaryFormSchema, BeneficiaryValues>(beneficiaryFormSchema, {
    defaultValues: {
      name: f?.name ?? "",
      relationship: f?.relationship ?? "",
      email: f?.email ?? "",
      phone: f?.phone ?? "",
      address: f?.address ?? "",
      notes: f?.notes ?? "",
      allocations: (f?.allocations ?? []).map((a) => ({ target: a.assetId ?? WHOLE_ESTATE, percentage: a.percentage })),
    },
  });
  // The beneficiary as the form opened: the save writes only the fields changed since (another device
  // may have changed the others meanwhile).
  const [opened] = useState(() => record?.fields);
  const rows = useFieldArray({ control: form.control, name: "allocations" });
  const watched = form.watch("allocations");
  const sortedAssets = useMemo(() => [...assets].sort((a, b) => a.fields.name.localeCompare(b.fields.name)), [assets]);
  // What a row's picker shows, whole over the native select (a long asset name wraps, not cut).
  const targetLabel = (target: string | undefined) =>
    !target ? t("beneficiaries.choose") : target === WHOLE_ESTATE ? t("beneficiaries.wholeEstate") : (assets.find((a) => a.id === target)?.fields.name ?? "");

  const submit = form.submit(async (values) => {
    const result = await saveBeneficiary(db, workspaceId, toFields(values), record?.id, opened);
    if (result.ok) {
      onClose();
      return;
    }
    const names = Object.keys(beneficiaryShape);
    let placed = false;
    for (const issue of result.issues) {
      const path = formPath(issue.path);
      if (!names.includes(path.split(".")[0] ?? "")) continue;
      form.setError(path as Path<BeneficiaryValues>, { type: "command", message: encodeMessage(issue.key, issue.params) }, { shouldFocus: !placed });
      placed = true;
    }
    if (!placed) form.setFormError(new Error(t("beneficiaries.saveFailed")));
  });

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      size="lg"
      onOpenChange={(o) => !o && onClose()}
      title={record ? t("beneficiaries.editTitle", { name: record.fields.name }) : t("beneficiaries.addTitle")}
      data-testid="beneficiary-dialog"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" form="beneficiary-form" loading={form.formState.isSubmitting} data-testid="beneficiary-save">
            {t("beneficiaries.save")}
          </Button>
        </>
      }
    >
      <form id="beneficiary-form" className={formStyles.form} noValidate onSubmit={submit}>
        <div className={styles.formGrid}>
          <Field label={t("beneficiaries.fields.name")} error={form.errorText("name")} required>
            <TextInput {...form.register("name")} autoComplete="off" data-autofocus />
          </Field>
          <Field label={t("beneficiaries.fields.relationship")} error={form.errorText("relationship")} required>
            <NativeSelect {...form.register("relationship")}>
              <option value="">{t("beneficiaries.choose")}</option>
              {RELATIONSHIPS.map((r) => (
                <option key={r} value={r}>
                  {label("relationship", r)}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field label={t("beneficiaries.fields.email")} error={form.errorText("email")}>
            <TextInput {...form.register("email")} type="email" autoComplete="off" />
          </Field>
          <Field label={t("beneficiaries.fields.phone")} error={form.errorText("phone")}>
            <TextInput {...form.register("phone")} type="tel" autoComplete="off" />
          </Field>
        </div>
        <Field label={t("beneficiaries.fields.address")} error={form.errorText("address")}>
          <TextInput {...form.register("address")} autoComplete="off" />
        </Field>
        <fieldset className={styles.fieldset}>
          <legend>{t("beneficiaries.fields.allocations")}</legend>
          <p className={styles.muted}>{t("beneficiaries.allocationsHint")}</p>
          {rows.fields.map((row, i) => (
            <div key={row.id} className={styles.allocationRow} data-testid="allocation-row">
              <Field label={t("beneficiaries.allocationTarget", { n: i + 1 })} error={form.errorText(`allocations.${i}.target`)} required>
                <NativeSelect {...form.register(`allocations.${i}.target`)} shown={targetLabel(watched[i]?.target)}>
                  <option value="">{t("beneficiaries.choose")}</option>
                  <option value={WHOLE_ESTATE}>{t("beneficiaries.wholeEstate")}</option>
                  {/* Held assets, plus the one this row already gives (sold since, it stays until
                      changed or removed; a new row cannot pick a sold asset). rows.fields holds each
                      row's value as it opened or was added, watched its value now. */}
                  {linkableAssets(sortedAssets, row.target, watched[i]?.target).map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.fields.name}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field label={t("beneficiaries.allocationPercentage", { n: i + 1 })} error={form.errorText(`allocations.${i}.percentage`)} required>
                <Controller control={form.control} name={`allocations.${i}.percentage`} render={({ field }) => <PercentInput {...field} />} />
              </Field>
              <IconButton label={t("beneficiaries.removeAllocation", { n: i + 1 })} icon={<Trash2 size={16} />} variant="ghost" onClick={() => rows.remove(i)} />
              <AllocationSum row={watched[i]} editingId={record?.id} />
            </div>
          ))}
          {rows.fields.length < ALLOCATIONS_MAX && (
            <Button size="sm" variant="secondary" icon={<Plus size={16} />} onClick={() => rows.append({ target: "", percentage: "" })} data-testid="add-allocation">
              {t("beneficiaries.addAllocation")}
            </Button>
          )}
        </fieldset>
        <Field label={t("beneficiaries.fields.notes")} error={form.errorText("notes")}>
          <TextArea {...form.register("notes")} maxChars={2000} rows={3} />
        </Field>
      </form>
    </Dialog>
  );
}

/** The live sum of one allocation's target over every beneficiary (role=status: read out as it changes). */
function AllocationSum({ row, editingId }: { row: { target: string; percentage: string } | undefined; editingId: string | undefined }) {
  const { t } = useTranslation();
  const message = useMessage();
  const { beneficiaries } = useEstate();
  const target = row?.target ?? "";
  const others = useMemo(() => beneficiaries.map((b) => ({ id: b.id, allocations: b.fields.allocations })), [beneficiaries]);
  if (target === "") return <p className={styles.sum} role="status" />;
  const sum = sumWith(others, editingId, target === WHOLE_ESTATE ? ESTATE : target, row?.percentage ?? "");
  const ref = allocationMessage(sum);
  return (
    <p className={ref?.key === "validation.percent.sumExceeds" ? styles.sumOver : styles.sum} role="status" data-testid="allocation-sum">
      {ref ? message(ref) : t("beneficiaries.fullyAllocated")}
    </p>
  );
}
