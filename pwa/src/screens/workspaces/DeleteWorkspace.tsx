// The danger zone of a team workspace, for its owners: deleting it with every record in it, for
// every member. The kit's AlertDialog says what goes and keeps its button disabled until the
// workspace's name is typed; then the server asks for a recent proof of identity (the
// re-verification dialog opens by itself and the call is sent again once it is passed). A refusal
// shows the server's message and changes nothing.
import { Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ERROR_CODES, isApiError } from "../../api/client";
import type { Workspace } from "../../api/types";
import { useDeleteWorkspaceMutation } from "../../api/workspaces";
import { FormError } from "../../forms/FormError";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { AlertDialog } from "../../ui/Dialog";
import styles from "./Workspaces.module.css";

interface DeleteWorkspaceProps {
  workspace: Workspace;
  onDeleted: () => void;
}

export function DeleteWorkspace({ workspace, onDeleted }: DeleteWorkspaceProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const remove = useDeleteWorkspaceMutation(workspace.id, {
    onSuccess: () => {
      setOpen(false);
      notify("success", t("workspaces.delete.done", { workspace: workspace.name }));
      onDeleted();
    },
  });
  // Cancelling the re-verification dialog is the user's choice, not a failure to report.
  const refused = remove.isError && !isApiError(remove.error, ERROR_CODES.reverificationRequired);

  return (
    <Card title={t("workspaces.delete.zone")} tone="danger" data-testid="workspace-danger-zone">
      <div className={styles.dangerRow}>
        <div>
          <h3 className={styles.dangerTitle}>{t("workspaces.delete.title")}</h3>
          <p className={styles.note}>{t("workspaces.delete.text")}</p>
        </div>
        <AlertDialog
          open={open}
          onOpenChange={(next) => {
            if (remove.isPending) return;
            if (!next) remove.reset();
            setOpen(next);
          }}
          trigger={
            <Button variant="danger-outline" icon={<Trash2 size={16} />}>
              {t("workspaces.delete.open")}
            </Button>
          }
          title={t("workspaces.delete.title")}
          description={t("workspaces.delete.warning", { workspace: workspace.name })}
          confirmText={workspace.name}
          confirmTextOptions={{ label: t("workspaces.delete.confirmLabel"), hint: t("workspaces.delete.confirmHint", { workspace: workspace.name }) }}
          confirmLabel={t("workspaces.delete.submit")}
          confirmLoadingLabel={t("workspaces.delete.deleting")}
          onConfirm={() => remove.mutate()}
          loading={remove.isPending}
          error={refused && <FormError error={remove.error} />}
          data-testid="delete-workspace-dialog"
        />
      </div>
    </Card>
  );
}
