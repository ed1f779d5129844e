// Instructions: the legacy instructions about this asset (what the person wants done with it):
// listed, added and edited in a dialog.
import { changedSince, type SyncedRecord } from "@patrimonio/clientdb";
import { legacyInstructionShape, PRIORITIES } from "@patrimonio/shared-schema";
import { Pencil, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import formStyles from "../../../forms/form.module.css";
import { encodeMessage, useSchemaForm } from "../../../forms/schemaForm";
import { Badge } from "../../../ui/Badge";
import { Button } from "../../../ui/Button";
import { Card } from "../../../ui/Card";
import { Dialog, DialogClose } from "../../../ui/Dialog";
import { Field } from "../../../ui/Field";
import { NativeSelect } from "../../../ui/NativeSelect";
import { TextArea } from "../../../ui/TextArea";
import { useAssetDetail } from "./context";
import { useAssetInstructionRecords } from "./data";
import styles from "./detail.module.css";
import { useEnumLabel } from "./fieldText";

const INSTRUCTION_MAX = 4000;

/** The instruction typed in the form: the schema's text and priority ("" = none). */
const instructionFormSchema = z.strictObject({
  text: legacyInstructionShape.text,
  priority: z.preprocess((v) => (v === "" ? undefined : v), legacyInstructionShape.priority),
});
interface InstructionValues {
  text: string;
  priority: string;
}

type Editing = { mode: "add" } | { mode: "edit"; record: SyncedRecord<"legacyInstructions"> } | null;

export function InstructionsSection() {
  const { t } = useTranslation();
  const { asset, canEdit } = useAssetDetail();
  const enumLabel = useEnumLabel();
  const instructions = useAssetInstructionRecords(asset.workspaceId, asset.id);
  const [editing, setEditing] = useState<Editing>(null);
  return (
    <Card
      title={t("assetDetail.instructions.title")}
      description={t("assetDetail.instructions.description")}
      data-testid="section-instructions"
      actions={
        canEdit && (
          <Button size="sm" variant="ghost" icon={<Plus size={16} />} onClick={() => setEditing({ mode: "add" })}>
            {t("assetDetail.instructions.add")}
          </Button>
        )
      }
    >
      {instructions !== undefined && instructions.length === 0 && <p className={styles.muted}>{t("assetDetail.instructions.empty")}</p>}
      {instructions !== undefined && instructions.length > 0 && (
        <ul className={styles.instructions}>
          {instructions.map((r) => (
            <li key={r.id} className={styles.instruction} data-testid="instruction">
              <p className={styles.instructionText}>{r.fields.text}</p>
              <div className={styles.instructionMeta}>
                {r.fields.priority && <Badge tone="outline">{t("assetDetail.instructions.priorityValue", { priority: enumLabel("priority", r.fields.priority) })}</Badge>}
                {canEdit && (
                  <Button size="sm" variant="ghost" icon={<Pencil size={16} />} onClick={() => setEditing({ mode: "edit", record: r })}>
                    {t("assetDetail.instructions.edit")}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {editing && <InstructionDialog editing={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}

function InstructionDialog({ editing, onClose }: { editing: NonNullable<Editing>; onClose: () => void }) {
  const { t } = useTranslation();
  const { db, asset } = useAssetDetail();
  const enumLabel = useEnumLabel();
  const record = editing.mode === "edit" ? editing.record : undefined;
  const form = useSchemaForm<typeof instructionFormSchema, InstructionValues>(instructionFormSchema, {
    defaultValues: { text: record?.fields.text ?? "", priority: record?.fields.priority ?? "" },
  });
  // The instruction as the form opened: the save writes only what changed since (another device may
  // have changed the rest meanwhile).
  const [opened] = useState(() => record?.fields);
  const submit = form.submit(async (values) => {
    const result = record
      ? await db.update("legacyInstructions", record.id, changedSince({ text: values.text, priority: values.priority ?? null }, opened))
      : await db.create("legacyInstructions", asset.workspaceId, {
          text: values.text,
          assetId: asset.id,
          ...(values.priority ? { priority: values.priority } : {}),
        });
    if (result.ok) {
      onClose();
      return;
    }
    for (const issue of result.issues) {
      if (issue.path === "text" || issue.path === "priority") form.setError(issue.path, { type: "schema", message: encodeMessage(issue.key, issue.params) });
    }
  });
  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      size="md"
      onOpenChange={(o) => !o && onClose()}
      title={record ? t("assetDetail.instructions.editTitle") : t("assetDetail.instructions.addTitle")}
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" form="asset-instruction-form" loading={form.formState.isSubmitting}>
            {t("assetDetail.save")}
          </Button>
        </>
      }
    >
      <form id="asset-instruction-form" className={formStyles.form} noValidate onSubmit={submit}>
        <Field label={t("assetDetail.instructions.text")} error={form.errorText("text")} required>
          <TextArea {...form.register("text")} maxChars={INSTRUCTION_MAX} rows={5} data-autofocus />
        </Field>
        <Field label={t("assetDetail.instructions.priority")} error={form.errorText("priority")}>
          <NativeSelect {...form.register("priority")}>
            <option value="">{t("assetDetail.value.notSet")}</option>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {enumLabel("priority", p)}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </form>
    </Dialog>
  );
}
