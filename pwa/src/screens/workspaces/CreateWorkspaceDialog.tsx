// The dialog that creates a team workspace: its name, validated by the shared schema (the server
// checks the same), then POST /workspaces. The caller becomes its owner; the new workspace opens so
// that people can be invited into it.
import { WORKSPACE_NAME_MAX, workspaceNameRequestSchema } from "@patrimonio/shared-schema";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { Workspace } from "../../api/types";
import { useCreateWorkspaceMutation } from "../../api/workspaces";
import styles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { trimFields, useSchemaForm } from "../../forms/schemaForm";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { Dialog, DialogClose } from "../../ui/Dialog";
import { Field } from "../../ui/Field";
import { TextInput } from "../../ui/TextInput";

interface CreateWorkspaceDialogProps {
  onCancel: () => void;
  onCreated: (workspace: Workspace) => void;
}

export function CreateWorkspaceDialog({ onCancel, onCreated }: CreateWorkspaceDialogProps) {
  const { t } = useTranslation();
  const formId = useId();
  const form = useSchemaForm(workspaceNameRequestSchema, { defaultValues: { name: "" }, prepare: trimFields("name") });
  const create = useCreateWorkspaceMutation({
    onSuccess: ({ workspace }) => {
      notify("success", t("workspaces.create.created", { workspace: workspace.name }));
      onCreated(workspace);
    },
  });

  return (
    <Dialog
      dirty={form.formState.isDirty}
      open
      onOpenChange={(open) => !open && !create.isPending && onCancel()}
      title={t("workspaces.create.title")}
      description={t("workspaces.create.description")}
      data-testid="create-workspace-dialog"
      footer={
        <>
          <DialogClose>
            <Button variant="ghost" disabled={create.isPending}>
              {t("common.cancel")}
            </Button>
          </DialogClose>
          <Button type="submit" form={formId} variant="primary" loading={create.isPending} loadingText={t("workspaces.create.creating")}>
            {t("workspaces.create.submit")}
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} noValidate onSubmit={form.submit((values) => create.mutateAsync(values))}>
        <Field label={t("workspaces.create.nameLabel")} hint={t("workspaces.create.nameHint", { max: WORKSPACE_NAME_MAX })} error={form.errorText("name")} required>
          <TextInput autoComplete="off" data-autofocus {...form.register("name")} />
        </Field>
        <FormError form={form} />
      </form>
    </Dialog>
  );
}
