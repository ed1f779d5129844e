// The new / edit legal structure form (spec §3: name, structure type, country, state or province,
// ownership percentage; plus the structure that owns it), validated as one types by the shared
// schema's legalStructureSchema with the spec's messages (§5: name, structure type and country are
// required). The owner picker never offers the structure itself or a structure it owns (directly or
// through a chain); and since another tab or device may change the tree while the form is open, the
// save checks again against the device database and refuses a cycle with a message on the field.
import { saveLegalStructure, type JsonValue } from "@patrimonio/clientdb";
import { legalStructureSchema, type LegalStructure } from "@patrimonio/shared-schema";
import { useId, useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormError } from "../../../forms/FormError";
import formStyles from "../../../forms/form.module.css";
import { applyIssues, useSchemaForm } from "../../../forms/schemaForm";
import { SubdivisionInput } from "../../../forms/SubdivisionInput";
import { Alert } from "../../../ui/Alert";
import { Button } from "../../../ui/Button";
import { Combobox } from "../../../ui/Combobox";
import { PercentInput } from "../../../ui/DecimalInput";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { Select } from "../../../ui/Select";
import { TextInput } from "../../../ui/TextInput";
import { ConflictNote } from "../common/ConflictNote";
import { descendantsOf, type StructureForest } from "./structureModel";
import { useCountryOptions, useStructureTypeOptions, type StructureRow, type StructuresData } from "./useStructuresData";

/** The form's values: every field a string ("" = empty). */
export interface StructureValues {
  name: string;
  structureType: string;
  country: string;
  state: string;
  ownershipPercentage: string;
  parentStructureId: string;
}

export const EMPTY_STRUCTURE: StructureValues = {
  name: "",
  structureType: "",
  country: "",
  state: "",
  ownershipPercentage: "",
  parentStructureId: "",
};

function valuesOf(structure: StructureRow | undefined, parentId?: string): StructureValues {
  if (!structure) return { ...EMPTY_STRUCTURE, parentStructureId: parentId ?? "" };
  return {
    name: structure.name,
    structureType: structure.structureType,
    country: structure.country,
    state: structure.state ?? "",
    ownershipPercentage: structure.ownershipPercentage ?? "",
    parentStructureId: structure.parentStructureId ?? "",
  };
}

/** Trims the texts and leaves out the optional fields left empty (the schema wants them absent). */
export function prepareStructure(values: StructureValues): StructureValues {
  const out: Record<string, string | undefined> = {};
  for (const [key, raw] of Object.entries(values)) {
    const value = typeof raw === "string" ? raw.trim() : raw;
    const optional = key === "state" || key === "ownershipPercentage" || key === "parentStructureId";
    out[key] = optional && value === "" ? undefined : value;
  }
  return out as unknown as StructureValues;
}

interface StructureFormDialogProps {
  data: StructuresData & { forest: StructureForest<StructureRow> };
  /** The structure to edit; undefined for a new one. */
  structure?: StructureRow | undefined;
  /** For a new structure: the owner chosen beforehand ("new structure under…"). */
  parentId?: string | undefined;
  onClose: () => void;
}

export function StructureFormDialog({ data, structure, parentId, onClose }: StructureFormDialogProps) {
  const { t, i18n } = useTranslation();
  const [other, setOther] = useState<string[]>([]);
  const formId = useId();
  const form = useSchemaForm<typeof legalStructureSchema, StructureValues>(legalStructureSchema, {
    defaultValues: valuesOf(structure, parentId),
    prepare: prepareStructure,
    mode: "onTouched",
  });
  const { control, register, errorText } = form;
  // The values an edit opened with, cleaned as a submit cleans them: the save writes only the fields
  // changed since (another device may have changed the others meanwhile).
  const [opened] = useState(() => (structure ? (prepareStructure(valuesOf(structure)) as unknown as Partial<LegalStructure>) : undefined));
  const types = useStructureTypeOptions();
  const countries = useCountryOptions();
  const country = form.watch("country");
  const { forest } = data;
  // A losing value as the reader would recognise it: a type, a country, an owner by their names.
  const conflictFormat = (value: JsonValue): string => {
    if (typeof value !== "string") return value === null ? "—" : JSON.stringify(value);
    return forest.byId.get(value)?.name ?? (types.options.some((o) => o.value === value) ? types.labelOf(value) : value);
  };

  // Owners that make no cycle: not the structure itself, nor anything it owns. The owner already
  // picked stays listed (if the tree changed meanwhile, the save refuses it with its message).
  const picked = form.watch("parentStructureId");
  const owners = useMemo(() => {
    const excluded = structure ? new Set([structure.id, ...descendantsOf(forest, structure.id)]) : new Set<string>();
    return [...forest.byId.values()]
      .filter((s) => !excluded.has(s.id) || (s.id === picked && s.id !== structure?.id))
      .map((s) => ({ value: s.id, label: s.name, hint: types.labelOf(s.structureType) }))
      .sort((a, b) => a.label.localeCompare(b.label));
  }, [forest, structure, types, picked]);

  // The save checks the owner again inside its transaction (another tab or device may have changed
  // the tree since the form opened): a cycle is refused there, with its message on the owner field.
  const onSubmit = form.submit(async (values) => {
    const { workspaceId } = data.workspace;
    if (!data.db || !workspaceId) throw new Error("The device database is not ready.");
    setOther([]);
    const result = await saveLegalStructure(data.db, workspaceId, values as unknown as LegalStructure, structure?.id, opened);
    if (!result.ok) {
      setOther(applyIssues(i18n, form.setError, result.issues, Object.keys(EMPTY_STRUCTURE)));
      return;
    }
    onClose();
  });

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(open) => !open && onClose()}
      size="md"
      title={structure ? t("structures.form.editTitle") : t("structures.form.newTitle")}
      description={t("structures.form.description")}
      data-testid="structure-form"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")}>
            {structure ? t("common.saveChanges") : t("structures.form.create")}
          </Button>
        </>
      }
    >
      <form id={formId} className={formStyles.form} noValidate onSubmit={onSubmit}>
        <Field label={t("structures.fields.name")} error={errorText("name")} required>
          <TextInput autoComplete="off" data-autofocus="" {...register("name")} />
        </Field>
        {structure && <ConflictNote recordId={structure.id} field="name" format={conflictFormat} />}
        <div className={formStyles.grid}>
          <Field label={t("structures.fields.structureType")} error={errorText("structureType")} required>
            <Controller
              name="structureType"
              control={control}
              render={({ field }) => <Select options={types.options} placeholder={t("structures.form.choose")} {...field} />}
            />
          </Field>
        {structure && <ConflictNote recordId={structure.id} field="structureType" format={conflictFormat} />}
          <Field label={t("structures.fields.ownershipPercentage")} hint={t("structures.form.ownershipHint")} error={errorText("ownershipPercentage")}>
            <Controller name="ownershipPercentage" control={control} render={({ field }) => <PercentInput {...field} />} />
          </Field>
        {structure && <ConflictNote recordId={structure.id} field="ownershipPercentage" format={conflictFormat} />}
          <Field label={t("structures.fields.country")} error={errorText("country")} required>
            <Controller
              name="country"
              control={control}
              render={({ field }) => (
                <Combobox
                  options={countries.options}
                  placeholder={t("structures.form.choose")}
                  {...field}
                  onChange={(value) => {
                    if (value !== field.value) form.setValue("state", "");
                    field.onChange(value);
                  }}
                />
              )}
            />
          </Field>
        {structure && <ConflictNote recordId={structure.id} field="country" format={conflictFormat} />}
          <Field label={t("structures.fields.state")} error={errorText("state")}>
            <Controller
              name="state"
              control={control}
              render={({ field }) => <SubdivisionInput country={country} placeholder={t("structures.form.choose")} onNormalize={(code) => form.resetField("state", { defaultValue: code })} {...field} />}
            />
          </Field>
        {structure && <ConflictNote recordId={structure.id} field="state" format={conflictFormat} />}
        </div>
        <Field
          label={t("structures.fields.parent")}
          hint={structure ? t("structures.form.parentHintEdit") : t("structures.form.parentHint")}
          error={errorText("parentStructureId")}
        >
          <Controller
            name="parentStructureId"
            control={control}
            render={({ field }) => (
              <Combobox options={owners} placeholder={t("structures.form.noParent")} emptyText={t("structures.form.noOwners")} {...field} />
            )}
          />
        </Field>
        {structure && <ConflictNote recordId={structure.id} field="parentStructureId" format={conflictFormat} />}
        <FormError form={form} />
        {other.length > 0 && <Alert tone="error">{other.join(" ")}</Alert>}
      </form>
    </Dialog>
  );
}
