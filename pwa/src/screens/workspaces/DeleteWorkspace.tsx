// The danger zone of a team workspace, for its owners: deleting it with every record in it, for
// every member. The panel says what goes, asks for the workspace's name to be typed, then the server
// asks for a recent proof of identity (the re-verification dialog opens by itself and the call is
// sent again once it is passed). A refusal shows the server's message and changes nothing.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Trash2, TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { ERROR_CODES, isApiError } from "../../api/client";
import { endpoints } from "../../api/endpoints";
import { queryKeys } from "../../api/queries";
import type { Workspace } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert, TextField } from "../../forms/fields";
import { notify } from "../../toast/toast";
import { confirmsWorkspaceName } from "./forms";
import { useRefreshWorkspaces } from "./useRefreshWorkspaces";

interface DeleteWorkspaceProps {
  workspace: Workspace;
  onDeleted: () => void;
}

export function DeleteWorkspace({ workspace, onDeleted }: DeleteWorkspaceProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef(false);

  useEffect(() => {
    if (!open && returnFocus.current) {
      returnFocus.current = false;
      openButton.current?.focus();
    }
  }, [open]);

  return (
    <section className="card ws-danger" aria-labelledby="ws-danger-title" data-testid="workspace-danger-zone">
      <h2 id="ws-danger-title" className="section-title ws-danger-title">
        {t("workspaces.delete.zone")}
      </h2>
      <div className="ws-danger-row">
        <div>
          <h3 className="setting-title">{t("workspaces.delete.title")}</h3>
          <p className="ws-note">{t("workspaces.delete.text")}</p>
        </div>
        {!open && (
          <button ref={openButton} type="button" className="button button-danger" onClick={() => setOpen(true)}>
            <Trash2 size={16} aria-hidden="true" />
            {t("workspaces.delete.open")}
          </button>
        )}
      </div>
      {open && (
        <DeleteWorkspaceForm
          workspace={workspace}
          onDeleted={onDeleted}
          onCancel={() => {
            returnFocus.current = true;
            setOpen(false);
          }}
        />
      )}
    </section>
  );
}

function DeleteWorkspaceForm({ workspace, onDeleted, onCancel }: { workspace: Workspace; onDeleted: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const queryClient = useQueryClient();
  const errorText = useErrorText();
  const refresh = useRefreshWorkspaces();
  const [typed, setTyped] = useState("");
  const [problem, setProblem] = useState<string | undefined>();

  const remove = useMutation({
    mutationFn: () => endpoints.deleteWorkspace(api, workspace.id),
    networkMode: "always",
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: queryKeys.workspace(workspace.id), exact: true });
      notify("success", t("workspaces.delete.done", { workspace: workspace.name }));
      onDeleted();
      await refresh();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!confirmsWorkspaceName(typed, workspace.name)) {
      setProblem(t("workspaces.delete.mismatch", { workspace: workspace.name }));
      return;
    }
    setProblem(undefined);
    remove.mutate();
  }

  // Cancelling the re-verification dialog is the user's choice, not a failure to report.
  const refused = remove.isError && !isApiError(remove.error, ERROR_CODES.reverificationRequired);

  return (
    <form className="form ws-danger-panel" onSubmit={submit} noValidate aria-labelledby="ws-delete-warning">
      <p className="ws-danger-warning" id="ws-delete-warning">
        <TriangleAlert size={16} aria-hidden="true" />
        <span>{t("workspaces.delete.warning", { workspace: workspace.name })}</span>
      </p>
      <TextField
        label={t("workspaces.delete.confirmLabel")}
        hint={t("workspaces.delete.confirmHint", { workspace: workspace.name })}
        name="confirm-workspace-name"
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        error={problem}
        // The panel opens to be filled in: focus goes to its field.
        autoFocus
      />
      {refused && <FormAlert>{errorText(remove.error)}</FormAlert>}
      <div className="form-actions">
        <button type="button" className="button button-ghost" onClick={onCancel} disabled={remove.isPending}>
          {t("common.cancel")}
        </button>
        <button type="submit" className="button button-danger-strong" disabled={remove.isPending}>
          <Trash2 size={16} aria-hidden="true" />
          {remove.isPending ? t("workspaces.delete.deleting") : t("workspaces.delete.submit")}
        </button>
      </div>
    </form>
  );
}
