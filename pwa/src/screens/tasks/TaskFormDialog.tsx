// The new / edit task form (issue 13): title, notes, status, priority, due date and the asset it is
// about (a Combobox of the workspace's assets), validated as one types by the shared schema's
// taskSchema, so every message is a shared-schema key in the reader's language. The save goes
// through clientdb's task commands (device database + outbox): it works offline and syncs later.
// A value a simultaneous edit on another device replaced is shown under its field (Restore / Keep).
import { createTask, updateTask, type ClientDb, type JsonValue, type Patch } from "@patrimonio/clientdb";
import { taskSchema } from "@patrimonio/shared-schema";
import { useId, useMemo, useState } from "react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormError } from "../../forms/FormError";
import formStyles from "../../forms/form.module.css";
import { applyIssues, useSchemaForm } from "../../forms/schemaForm";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Combobox, type ComboboxOption } from "../../ui/Combobox";
import { DateInput } from "../../ui/DateInput";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { Select } from "../../ui/Select";
import { TextArea } from "../../ui/TextArea";
import { TextInput } from "../../ui/TextInput";
import { ConflictNote } from "../assets/common/ConflictNote";
import { EMPTY_TASK, prepareTask, taskFormValues, taskPatch, type TaskFormValues, type TaskLike } from "./taskModel";
import { usePriorityOptions, useStatusOptions } from "./taskOptions";

interface TaskFormDialogProps {
  db: ClientDb | null;
  workspaceId: string | undefined;
  /** The task to edit; undefined for a new one. */
  task?: TaskLike | undefined;
  /** The assets the picker offers (held ones, and the one the task is already about). */
  assets: readonly ComboboxOption[];
  /** Every asset's name, sold ones too: a value another device wrote is named by it. */
  assetNames?: ReadonlyMap<string, string> | undefined;
  onClose: () => void;
}

const FIELDS = Object.keys(EMPTY_TASK);

export function TaskFormDialog({ db, workspaceId, task, assets, assetNames, onClose }: TaskFormDialogProps) {
  const { t, i18n } = useTranslation();
  const f = useFormatters();
  const formId = useId();
  const [other, setOther] = useState<string[]>([]);
  const statuses = useStatusOptions();
  const priorities = usePriorityOptions();
  const priorityOptions = useMemo(() => [{ value: "none", label: t("tasks.priority.none") }, ...priorities], [priorities, t]);
  const form = useSchemaForm<typeof taskSchema, TaskFormValues>(taskSchema, {
    defaultValues: taskFormValues(task),
    prepare: (values) => prepareTask({ ...values, priority: values.priority === "none" ? "" : values.priority }),
    mode: "onTouched",
  });
  const { control, register, errorText } = form;
  // The values the form opened with, cleaned as a submit cleans them: what "unchanged" means.
  const [opened] = useState(() => prepareTask(taskFormValues(task)));

  // A losing value as the reader would recognise it: a status, a priority, an asset by name, a date.
  const conflictFormat = (value: JsonValue): string => {
    if (typeof value !== "string") return value === null ? "—" : JSON.stringify(value);
    const named = [...statuses, ...priorities, ...assets].find((o) => o.value === value);
    if (named) return named.label;
    const asset = assetNames?.get(value);
    if (asset !== undefined) return asset;
    return /^\d{4}-\d{2}-\d{2}$/.test(value) ? f.date(value) : value;
  };

  const onSubmit = form.submit(async (values) => {
    if (!db || !workspaceId) throw new Error("The device database is not ready.");
    setOther([]);
    // An edit writes only what the reader changed (taskPatch): the rest may have changed on another
    // device since the form opened.
    const result = task ? await updateTask(db, task.id, taskPatch(values, opened) as Patch<"tasks">) : await createTask(db, workspaceId, values);
    if (!result.ok) {
      setOther(applyIssues(i18n, form.setError, result.issues, FIELDS));
      return;
    }
    notify("success", task ? t("tasks.saved") : t("tasks.created"));
    onClose();
  });

  const conflict = (field: string) => (task ? <ConflictNote recordId={task.id} field={field} format={conflictFormat} /> : null);

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(open) => !open && onClose()}
      size="md"
      title={task ? t("tasks.form.editTitle") : t("tasks.form.newTitle")}
      description={t("tasks.form.description")}
      data-testid="task-form"
      footer={
        <>
          <DialogClose>
            <Button variant="secondary">{t("common.cancel")}</Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={form.formState.isSubmitting} loadingText={t("common.saving")} data-testid="task-submit">
            {task ? t("common.saveChanges") : t("tasks.form.create")}
          </Button>
        </>
      }
    >
      <form id={formId} className={formStyles.form} noValidate onSubmit={onSubmit}>
        <Field label={t("tasks.fields.title")} error={errorText("title")} required>
          <TextInput autoComplete="off" data-autofocus="" data-testid="task-title" {...register("title")} />
        </Field>
        {conflict("title")}
        <div className={formStyles.grid}>
          <Field label={t("tasks.fields.status")} error={errorText("status")} required>
            <Controller name="status" control={control} render={({ field }) => <Select options={statuses} data-testid="task-form-status" {...field} />} />
          </Field>
          {conflict("status")}
          <Field label={t("tasks.fields.priority")} error={errorText("priority")}>
            <Controller
              name="priority"
              control={control}
              render={({ field }) => (
                <Select options={priorityOptions} placeholder={t("tasks.priority.none")} data-testid="task-form-priority" {...field} />
              )}
            />
          </Field>
          {conflict("priority")}
          <Field label={t("tasks.fields.dueDate")} hint={t("tasks.form.dueHint")} error={errorText("dueDate")}>
            <Controller name="dueDate" control={control} render={({ field }) => <DateInput data-testid="task-due" {...field} />} />
          </Field>
          {conflict("dueDate")}
          <Field label={t("tasks.fields.asset")} hint={t("tasks.form.assetHint")} error={errorText("assetId")}>
            <Controller
              name="assetId"
              control={control}
              render={({ field }) => (
                <Combobox options={assets} placeholder={t("tasks.form.noAsset")} emptyText={t("tasks.form.noAssets")} data-testid="task-asset" {...field} />
              )}
            />
          </Field>
          {conflict("assetId")}
        </div>
        <Field label={t("tasks.fields.notes")} error={errorText("notes")}>
          <TextArea maxChars={2000} rows={3} data-testid="task-notes" {...register("notes")} />
        </Field>
        {conflict("notes")}
        <FormError form={form} />
        {other.length > 0 && <Alert tone="error">{other.join(" ")}</Alert>}
      </form>
    </Dialog>
  );
}
