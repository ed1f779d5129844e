// The dialog that creates a team workspace: its name, checked as the server checks it, then
// POST /workspaces. The caller becomes its owner; the new workspace opens so that people can be
// invited into it.
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import type { Workspace } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert, TextField } from "../../forms/fields";
import { Modal } from "../../shell/Modal";
import { notify } from "../../toast/toast";
import { WORKSPACE_NAME_MAX, workspaceNameProblem } from "./forms";
import { useRefreshWorkspaces } from "./useRefreshWorkspaces";

interface CreateWorkspaceDialogProps {
  onCancel: () => void;
  onCreated: (workspace: Workspace) => void;
}

export function CreateWorkspaceDialog({ onCancel, onCreated }: CreateWorkspaceDialogProps) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  const refresh = useRefreshWorkspaces();
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | undefined>();

  const create = useMutation({
    mutationFn: (value: string) => endpoints.createWorkspace(api, value),
    networkMode: "always",
    onSuccess: async ({ workspace }) => {
      await refresh();
      notify("success", t("workspaces.create.created", { workspace: workspace.name }));
      onCreated(workspace);
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = workspaceNameProblem(name);
    if (found) {
      setProblem(t(`workspaces.name.${found}`, { max: WORKSPACE_NAME_MAX }));
      return;
    }
    setProblem(undefined);
    create.mutate(name.trim());
  }

  return (
    <Modal title={t("workspaces.create.title")} description={t("workspaces.create.description")} onCancel={onCancel} testId="create-workspace-dialog">
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={t("workspaces.create.nameLabel")}
          hint={t("workspaces.create.nameHint", { max: WORKSPACE_NAME_MAX })}
          name="workspace-name"
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={problem}
          data-autofocus
        />
        {create.isError && <FormAlert>{errorText(create.error)}</FormAlert>}
        <div className="form-actions">
          <button type="button" className="button button-ghost" onClick={onCancel} disabled={create.isPending}>
            {t("common.cancel")}
          </button>
          <button type="submit" className="button button-primary" disabled={create.isPending}>
            {create.isPending ? t("workspaces.create.creating") : t("workspaces.create.submit")}
          </button>
        </div>
      </form>
    </Modal>
  );
}
