// /workspaces/$workspaceId: one workspace — its name (owners rename it), its members and their roles,
// its invitations (owners and editors), leaving it and, for its owners, deleting it. What is offered
// follows ./permissions.ts; the server decides every call and its refusals are shown as it words them.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ArrowLeft, Check, CircleAlert, Lock } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { ERROR_CODES, isApiError } from "../../api/client";
import { endpoints } from "../../api/endpoints";
import { queryKeys, useMe, useWorkspace, useWorkspaces } from "../../api/queries";
import type { Me, Workspace, WorkspaceDetail } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert, TextField } from "../../forms/fields";
import { RoutePending } from "../../router/fallbacks";
import { notify } from "../../toast/toast";
import { useActiveWorkspace } from "../../workspace/activeWorkspace";
import { DeleteWorkspace } from "./DeleteWorkspace";
import { WORKSPACE_NAME_MAX, workspaceNameProblem } from "./forms";
import { InviteSection } from "./InviteSection";
import { MembersSection } from "./MembersSection";
import { ownerCount, workspaceOffer } from "./permissions";
import { RoleBadge } from "./RoleBadge";
import { useRefreshWorkspaces } from "./useRefreshWorkspaces";
import "./workspaces.css";

interface WorkspaceDetailScreenProps {
  workspaceId: string;
  /** Back to the list, after leaving or deleting the workspace. */
  onGone: () => void;
}

export function WorkspaceDetailScreen({ workspaceId, onGone }: WorkspaceDetailScreenProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const detail = useWorkspace(workspaceId);
  const { data: me } = useMe();

  if (detail.isError) {
    return (
      <div className="page page-medium">
        <BackLink />
        <div className="empty-state" data-testid="workspace-unavailable">
          <span className="empty-state-icon" aria-hidden="true">
            <CircleAlert size={24} />
          </span>
          <h1 className="empty-state-title">{t("workspaces.detail.unavailable")}</h1>
          <p className="empty-state-text">{errorText(detail.error)}</p>
          {!isApiError(detail.error, ERROR_CODES.notFound) && (
            <button type="button" className="button" onClick={() => void detail.refetch()}>
              {t("common.retry")}
            </button>
          )}
        </div>
      </div>
    );
  }
  if (!detail.data || !me) return <RoutePending />;
  return <WorkspaceDetailView detail={detail.data} me={me} onGone={onGone} />;
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link to="/workspaces" className="ws-back">
      <ArrowLeft size={14} aria-hidden="true" />
      {t("workspaces.detail.back")}
    </Link>
  );
}

function WorkspaceDetailView({ detail, me, onGone }: { detail: WorkspaceDetail; me: Me; onGone: () => void }) {
  const { t } = useTranslation();
  const { workspace, members } = detail;
  const owners = ownerCount(members);
  const standing = { kind: workspace.kind, role: workspace.role, userId: me.user.id };
  const offer = workspaceOffer(standing, owners);
  const title = workspace.kind === "personal" ? t("workspace.personalName", { name: workspace.name }) : workspace.name;

  return (
    <div className="page page-medium" data-testid="workspace-detail">
      <BackLink />
      <div className="page-header ws-page-header">
        <div>
          <div className="ws-title-row">
            <h1 className="page-title">{title}</h1>
            <span className="ws-badges">
              <span className="badge badge-muted">{t(`workspaces.kind.${workspace.kind}`)}</span>
              <RoleBadge role={workspace.role} className="badge-success" testId="detail-role" />
            </span>
          </div>
          {workspace.kind === "personal" && (
            <p className="page-subtitle">
              <Lock size={13} aria-hidden="true" className="inline-icon" /> {t("workspaces.detail.personalNote")}
            </p>
          )}
        </div>
        <WorkIn workspace={workspace} />
      </div>

      {offer.rename && <RenameSection workspace={workspace} />}

      <MembersSection workspace={workspace} members={members} me={me} onLeft={onGone} />

      {offer.seeInvitations && <InviteSection workspace={workspace} invitations={detail.invitations ?? []} />}

      {offer.delete && <DeleteWorkspace workspace={workspace} onDeleted={onGone} />}
    </div>
  );
}

/** Makes this the workspace the app works in (the top bar's switcher follows). */
function WorkIn({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const { data: workspaces } = useWorkspaces();
  const { active, setActive } = useActiveWorkspace(workspaces);
  if (active?.id === workspace.id) {
    return (
      <span className="ws-note" data-testid="working-in">
        <Check size={14} aria-hidden="true" className="inline-icon" /> {t("workspaces.detail.workingIn")}
      </span>
    );
  }
  return (
    <button type="button" className="button" onClick={() => setActive(workspace.id)}>
      {t("workspaces.detail.workIn")}
    </button>
  );
}

function RenameSection({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  const refresh = useRefreshWorkspaces();
  const queryClient = useQueryClient();
  const [name, setName] = useState(workspace.name);
  const [problem, setProblem] = useState<string | undefined>();

  const rename = useMutation({
    mutationFn: (value: string) => endpoints.renameWorkspace(api, workspace.id, value),
    networkMode: "always",
    onSuccess: async ({ workspace: renamed }) => {
      queryClient.setQueryData<WorkspaceDetail>(queryKeys.workspace(workspace.id), (old) =>
        old ? { ...old, workspace: { ...old.workspace, name: renamed.name } } : old,
      );
      setName(renamed.name);
      await refresh();
      notify("success", t("workspaces.rename.renamed", { workspace: renamed.name }));
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
    rename.mutate(name.trim());
  }

  const unchanged = name.trim() === workspace.name;
  return (
    <section className="card" aria-labelledby="ws-settings-title">
      <h2 id="ws-settings-title" className="section-title ws-section-head">
        {t("workspaces.rename.title")}
      </h2>
      <form className="ws-inline-form" onSubmit={submit} noValidate>
        <TextField
          label={t("workspaces.rename.label")}
          name="workspace-name"
          autoComplete="off"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={problem}
        />
        <button type="submit" className="button" disabled={rename.isPending || unchanged}>
          {rename.isPending ? t("common.saving") : t("workspaces.rename.submit")}
        </button>
      </form>
      {rename.isError && <FormAlert>{errorText(rename.error)}</FormAlert>}
    </section>
  );
}
