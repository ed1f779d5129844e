// Create or edit one enumeration value: its code and both labels (the shared schema's
// enumUpdateRequest, which the server validates too). A new value gets the type and parent of the
// view it is created in. The code is fixed once the value exists (records keep it; the server
// refuses a change with 409), so editing shows it read-only.
import { enumUpdateRequestSchema, type Enumeration } from "@patrimonio/shared-schema";
import { useTranslation } from "react-i18next";
import { useCreateEnum, useUpdateEnum } from "../../../api/enums";
import { FormError } from "../../../forms/FormError";
import { trimFields, useSchemaForm } from "../../../forms/schemaForm";
import { Button } from "../../../ui/Button";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { TextInput } from "../../../ui/TextInput";

interface EnumFormDialogProps {
  /** The value edited, or null to create one of `type` under `parentId`. */
  value: Enumeration | null;
  type: string;
  parentId?: number | undefined;
  onClose: () => void;
}

export function EnumFormDialog({ value, type, parentId, onClose }: EnumFormDialogProps) {
  const { t, i18n } = useTranslation();
  const create = useCreateEnum();
  const update = useUpdateEnum();
  const form = useSchemaForm(enumUpdateRequestSchema, {
    defaultValues: { code: value?.code ?? "", labels: { es: value?.labels.es ?? "", en: value?.labels.en ?? "" } },
    prepare: trimFields("code"),
    conflictField: "code",
  });
  const busy = create.isPending || update.isPending;
  const formId = "enum-form";

  const save = form.submit(async (body) => {
    if (value) await update.mutateAsync({ id: value.id, body });
    else await create.mutateAsync({ type, code: body.code, labels: body.labels, ...(parentId ? { parentId } : {}) });
    onClose();
  });

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(open) => !open && onClose()}
      title={value ? t("enums.form.editTitle", { label: i18n.language.startsWith("en") ? value.labels.en : value.labels.es }) : t("enums.form.createTitle", { type: t(`enums.types.${type}`, { defaultValue: type }) })}
      description={t("enums.form.description")}
      data-testid="enum-form"
      footer={
        <>
          <DialogClose>
            <Button variant="ghost">{t("enums.form.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={busy} loadingText={t("enums.form.saving")}>
            {t("enums.form.save")}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={save}>
        <Field label={t("enums.fields.labelEs")} error={form.errorText("labels.es")} required>
          <TextInput data-autofocus autoComplete="off" {...form.register("labels.es")} />
        </Field>
        <Field label={t("enums.fields.labelEn")} error={form.errorText("labels.en")} required>
          <TextInput autoComplete="off" {...form.register("labels.en")} />
        </Field>
        <Field label={t("enums.fields.code")} hint={value ? t("enums.form.codeFixed") : t("enums.form.codeHint")} error={form.errorText("code")} required={!value}>
          <TextInput autoComplete="off" spellCheck={false} readOnly={Boolean(value)} {...form.register("code")} />
        </Field>
        <FormError form={form} />
      </form>
    </Dialog>
  );
}
