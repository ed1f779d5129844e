// Beside the top bar's workspace switcher: the caller's role in the active team workspace, the way
// to manage workspaces (with the count of invitations waiting for an answer) and to create a team
// workspace.
import { Link } from "@tanstack/react-router";
import { Plus, Settings2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useMyInvitations } from "../../api/queries";
import type { Workspace } from "../../api/types";
import { RoleBadge } from "./RoleBadge";
import "./workspaces.css";

export function WorkspaceSwitcherActions({ active }: { active: Workspace | undefined }) {
  const { t } = useTranslation();
  const invitations = useMyInvitations();
  const pending = invitations.data?.length ?? 0;
  const manage = pending > 0 ? t("workspaces.manageWithInvitations", { count: pending }) : t("workspaces.manage");
  return (
    <div className="ws-switcher-actions">
      {active?.kind === "team" && <RoleBadge role={active.role} className="ws-role-badge" testId="workspace-role" />}
      <Link to="/workspaces" className="icon-button ws-manage-link" aria-label={manage} title={manage} data-testid="manage-workspaces">
        <Settings2 size={18} aria-hidden="true" />
        {pending > 0 && (
          <span className="ws-count" aria-hidden="true" data-testid="pending-invitations">
            {pending}
          </span>
        )}
      </Link>
      <Link
        to="/workspaces"
        search={{ create: true }}
        className="icon-button ws-create-link"
        aria-label={t("workspaces.createTeam")}
        title={t("workspaces.createTeam")}
        data-testid="create-workspace"
      >
        <Plus size={18} aria-hidden="true" />
      </Link>
    </div>
  );
}

