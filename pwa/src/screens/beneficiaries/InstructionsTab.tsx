// Legacy instructions, grouped: general ones, then per asset, then per beneficiary (an instruction about
// both an asset and a beneficiary is listed under the asset and names the beneficiary), each group by
// priority (high first). Added, edited and deleted in dialogs.
import { deleteLegacyInstruction, saveLegacyInstruction, type EntityOf } from "@patrimonio/clientdb";
import { legacyInstructionShape, PRIORITIES } from "@patrimonio/shared-schema";
import { NotebookPen, Pencil, Plus, Trash2 } from "lucide-react";
import { useMemo, useRef, useState } from "react";
import type { Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import * as z from "zod";
import { linkableAssets } from "../../assets/disposal";
import type { InstructionRec } from "../../estate/hooks";
import { groupInstructions } from "../../estate/instructions";
import formStyles from "../../forms/form.module.css";
import { encodeMessage, useSchemaForm } from "../../forms/schemaForm";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { AlertDialog, Dialog, DialogClose } from "../../ui/Dialog";
import { EmptyState } from "../../ui/EmptyState";
import { useFocusKeeper } from "../../ui/focusKeeper";
import { Field } from "../../ui/Field";
import { NativeSelect } from "../../ui/NativeSelect";
import { TextArea } from "../../ui/TextArea";
import styles from "./beneficiaries.module.css";
import { useEstate } from "./context";
import { useSchemaLabel } from "./labels";

/** Where focus goes when an instruction's group is gone. */
const ADD_FALLBACK = ['[data-control="add"]'];

type Editing = { mode: "add" } | { mode: "edit"; record: InstructionRec } | null;

export function InstructionsTab() {
  const { t } = useTranslation();
  const { db, instructions, assets, beneficiaries, canEdit } = useEstate();
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<InstructionRec | null>(null);
  const groups = useMemo(() => groupInstructions(instructions, assets, beneficiaries), [instructions, assets, beneficiaries]);
  // An instruction deleted with focus in it (its confirmation) hands focus to the same button of the
  // one now in its place in its group, or to "add" when its group is gone (ui/focusKeeper.ts).
  const root = useRef<HTMLDivElement>(null);
  const keys = useMemo(() => groups.flatMap((g) => g.items.map((r) => `${g.key}:${r.id}`)), [groups]);
  useFocusKeeper(root, keys, (key) => key, ADD_FALLBACK);
  return (
    <div className={styles.tab} ref={root}>
      {canEdit && (
        <div className={styles.toolbar}>
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing({ mode: "add" })} data-control="add" data-testid="add-instruction">
            {t("legacy.add")}
          </Button>
        </div>
      )}
      {instructions.length === 0 ? (
        <EmptyState icon={<NotebookPen size={24} />} title={t("legacy.empty.title")} text={t("legacy.empty.text")} data-testid="instructions-empty" />
      ) : (
        <div className={styles.groups}>
          {groups.map((g) => (
            <Card
              key={g.key}
              title={g.kind === "general" ? t("legacy.general") : g.kind === "asset" ? t("legacy.aboutAsset", { name: g.name }) : t("legacy.aboutBeneficiary", { name: g.name })}
              headingLevel={3}
              data-testid="instruction-group"
              data-kind={g.kind}
            >
              <ul className={styles.instructions}>
                {g.items.map((r) => (
                  <InstructionItem key={r.id} rowKey={`${g.key}:${r.id}`} record={r} onEdit={() => setEditing({ mode: "edit", record: r })} onDelete={() => setDeleting(r)} showBeneficiary={g.kind === "asset"} />
                ))}
              </ul>
            </Card>
          ))}
        </div>
      )}
      {editing && <InstructionDialog record={editing.mode === "edit" ? editing.record : undefined} onClose={() => setEditing(null)} />}
      {deleting && (
        <AlertDialog
          open
          onOpenChange={(o) => !o && setDeleting(null)}
          title={t("legacy.deleteTitle")}
          description={t("legacy.deleteText")}
          confirmLabel={t("legacy.deleteConfirm")}
          onConfirm={() => void deleteLegacyInstruction(db, deleting.id).then(() => setDeleting(null))}
        />
      )}
    </div>
  );
}

function InstructionItem({
  rowKey,
  record,
  onEdit,
  onDelete,
  showBeneficiary,
}: {
  rowKey: string;
  record: InstructionRec;
  onEdit: () => void;
  onDelete: () => void;
  showBeneficiary: boolean;
}) {
  const { t } = useTranslation();
  const label = useSchemaLabel();
  const { canEdit, beneficiaries } = useEstate();
  const f = record.fields;
  const beneficiary = showBeneficiary && f.beneficiaryId ? beneficiaries.find((b) => b.id === f.beneficiaryId) : undefined;
  return (
    <li className={styles.instruction} data-testid="instruction" data-row-key={rowKey} data-priority={f.priority ?? "none"}>
      <p className={styles.instructionText}>{f.text}</p>
      <div className={styles.instructionMeta}>
        {f.priority && <Badge tone={f.priority === "high" ? "warning" : "outline"}>{t("legacy.priorityValue", { priority: label("priority", f.priority) })}</Badge>}
        {beneficiary && <Badge tone="neutral">{t("legacy.forBeneficiary", { name: beneficiary.fields.name })}</Badge>}
        {canEdit && (
          <span className={styles.actions}>
            <Button size="sm" variant="ghost" icon={<Pencil size={16} />} onClick={onEdit} data-control="edit">
              {t("legacy.edit")}
            </Button>
            <Button size="sm" variant="ghost" icon={<Trash2 size={16} />} onClick={onDelete} data-control="delete">
              {t("legacy.delete")}
            </Button>
          </span>
        )}
      </div>
    </li>
  );
}

const blank = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : v) : v);

const instructionFormSchema = z.strictObject({
  text: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), legacyInstructionShape.text),
  priority: z.preprocess(blank, legacyInstructionShape.priority),
  assetId: z.preprocess(blank, legacyInstructionShape.assetId),
  beneficiaryId: z.preprocess(blank, legacyInstructionShape.beneficiaryId),
});

interface InstructionValues {
  text: string;
  priority: string;
  assetId: string;
  beneficiaryId: string;
}

function InstructionDialog({ record, onClose }: { record?: InstructionRec | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const label = useSchemaLabel();
  const { db, workspaceId, assets, beneficiaries } = useEstate();
  const f = record?.fields;
  const form = useSchemaForm<typeof instructionFormSchema, InstructionValues>(instructionFormSchema, {
    defaultValues: { text: f?.text ?? "", priority: f?.priority ?? "", assetId: f?.assetId ?? "", beneficiaryId: f?.beneficiaryId ?? "" },
  });
  // The instruction as the form opened: the save writes only the fields changed since (another
  // device may have changed the others meanwhile).
  const [opened] = useState(() => f);
  const submit = form.submit(async (v) => {
    const fields: EntityOf<"legacyInstructions"> = { text: v.text };
    if (v.priority) fields.priority = v.priority;
    if (v.assetId) fields.assetId = v.assetId;
    if (v.beneficiaryId) fields.beneficiaryId = v.beneficiaryId;
    const result = await saveLegacyInstruction(db, workspaceId, fields, record?.id, opened);
    if (result.ok) {
      onClose();
      return;
    }
    for (const issue of result.issues) {
      const path = (["text", "priority", "assetId", "beneficiaryId"].includes(issue.path) ? issue.path : "text") as Path<InstructionValues>;
      form.setError(path, { type: "command", message: encodeMessage(issue.key, issue.params) });
    }
  });
  // Held assets, plus the one the instruction is already about (sold since, it still shows).
  const sortedAssets = linkableAssets(assets, opened?.assetId, f?.assetId).sort((a, b) => a.fields.name.localeCompare(b.fields.name));
  const sortedPeople = [...beneficiaries].sort((a, b) => a.fields.name.localeCompare(b.fields.name));
  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      size="md"
      onOpenChange={(o) => !o && onClose()}
      title={record ? t("legacy.editTitle") : t("legacy.addTitle")}
      data-testid="instruction-dialog"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button variant="primary" type="submit" form="instruction-form" loading={form.formState.isSubmitting} data-testid="instruction-save">
            {t("legacy.save")}
          </Button>
        </>
      }
    >
      <form id="instruction-form" className={formStyles.form} noValidate onSubmit={submit}>
        <Field label={t("legacy.fields.text")} error={form.errorText("text")} required>
          <TextArea {...form.register("text")} maxChars={4000} rows={5} data-autofocus />
        </Field>
        <Field label={t("legacy.fields.priority")} error={form.errorText("priority")}>
          <NativeSelect {...form.register("priority")}>
            <option value="">{t("legacy.noPriority")}</option>
            {PRIORITIES.map((p) => (
              <option key={p} value={p}>
                {label("priority", p)}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={t("legacy.fields.asset")} hint={t("legacy.generalHint")} error={form.errorText("assetId")}>
          <NativeSelect {...form.register("assetId")}>
            <option value="">{t("legacy.noAsset")}</option>
            {sortedAssets.map((a) => (
              <option key={a.id} value={a.id}>
                {a.fields.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field label={t("legacy.fields.beneficiary")} error={form.errorText("beneficiaryId")}>
          <NativeSelect {...form.register("beneficiaryId")}>
            <option value="">{t("legacy.noBeneficiary")}</option>
            {sortedPeople.map((b) => (
              <option key={b.id} value={b.id}>
                {b.fields.name}
              </option>
            ))}
          </NativeSelect>
        </Field>
      </form>
    </Dialog>
  );
}
