// /workspaces: the invitations waiting for an answer, my workspaces with my role in each, and the
// creation of a team workspace (a dialog, opened by ?create=true, so the top bar can link to it).
import { Link } from "@tanstack/react-router";
import { Plus, UsersRound, UserRound } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useWorkspaces } from "../../api/queries";
import type { Workspace } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert } from "../../forms/fields";
import { RoutePending } from "../../router/fallbacks";
import { useActiveWorkspace } from "../../workspace/activeWorkspace";
import { CreateWorkspaceDialog } from "./CreateWorkspaceDialog";
import { InvitationsInbox } from "./InvitationsInbox";
import { RoleBadge } from "./RoleBadge";
import "./workspaces.css";

interface WorkspacesScreenProps {
  /** Whether the creation dialog is open (the route's ?create=true). */
  creating: boolean;
  onCreatingChange: (open: boolean) => void;
  /** Opens a workspace (after it was created). */
  onOpen: (workspace: Workspace) => void;
}

export function WorkspacesScreen({ creating, onCreatingChange, onOpen }: WorkspacesScreenProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const workspaces = useWorkspaces();
  const { active } = useActiveWorkspace(workspaces.data);

  return (
    <div className="page page-medium">
      <div className="page-header ws-page-header">
        <div>
          <h1 className="page-title">{t("workspaces.title")}</h1>
          <p className="page-subtitle">{t("workspaces.subtitle")}</p>
        </div>
        <button type="button" className="button button-primary" onClick={() => onCreatingChange(true)}>
          <Plus size={16} aria-hidden="true" />
          {t("workspaces.createTeam")}
        </button>
      </div>

      <InvitationsInbox />

      <section className="card" aria-labelledby="ws-list-title">
        <h2 id="ws-list-title" className="section-title ws-section-head">
          {t("workspaces.list.title")}
        </h2>
        {workspaces.isPending && <RoutePending />}
        {workspaces.isError && <FormAlert>{`${t("workspaces.list.loadFailed")} ${errorText(workspaces.error)}`}</FormAlert>}
        {workspaces.data && (
          <ul className="ws-list" data-testid="workspace-list">
            {workspaces.data.map((workspace) => (
              <WorkspaceRow key={workspace.id} workspace={workspace} current={workspace.id === active?.id} />
            ))}
          </ul>
        )}
      </section>

      {creating && (
        <CreateWorkspaceDialog
          onCancel={() => onCreatingChange(false)}
          onCreated={(workspace) => onOpen(workspace)}
        />
      )}
    </div>
  );
}

function WorkspaceRow({ workspace, current }: { workspace: Workspace; current: boolean }) {
  const { t } = useTranslation();
  const Icon = workspace.kind === "personal" ? UserRound : UsersRound;
  const name = workspace.kind === "personal" ? t("workspace.personalName", { name: workspace.name }) : workspace.name;
  return (
    <li className="ws-row" data-testid="workspace-row" data-workspace-id={workspace.id}>
      <span className="ws-avatar" aria-hidden="true">
        <Icon size={16} />
      </span>
      <div className="ws-row-main">
        <span className="ws-row-title">
          <Link to="/workspaces/$workspaceId" params={{ workspaceId: workspace.id }}>
            {name}
          </Link>
        </span>
        <span className="ws-row-meta">{t(`workspaces.kind.${workspace.kind}`)}</span>
      </div>
      <div className="ws-badges">
        {current && <span className="badge badge-muted">{t("workspaces.current")}</span>}
        <RoleBadge role={workspace.role} className="badge-success" testId="workspace-row-role" />
      </div>
    </li>
  );
}
