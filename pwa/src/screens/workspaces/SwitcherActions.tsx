// Beside the top bar's workspace switcher: the caller's role in the active team workspace, the way
// to manage workspaces (with the count of invitations waiting for an answer) and to create a team
// workspace.
import { Link } from "@tanstack/react-router";
import { Plus, Settings2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { Workspace } from "../../api/types";
import { useMyInvitations } from "../../api/workspaces";
import { buttonClass } from "../../ui/Button";
import { cx } from "../../ui/cx";
import { RoleBadge } from "./RoleBadge";
import styles from "./Workspaces.module.css";

export function WorkspaceSwitcherActions({ active }: { active: Workspace | undefined }) {
  const { t } = useTranslation();
  const invitations = useMyInvitations();
  const pending = invitations.data?.length ?? 0;
  const manage = pending > 0 ? t("workspaces.manageWithInvitations", { count: pending }) : t("workspaces.manage");
  const iconLink = (extra: string) => buttonClass({ variant: "ghost" }, cx(styles.iconLink, extra));
  return (
    <div className={styles.switcherActions}>
      {active?.kind === "team" && <RoleBadge role={active.role} tone="neutral" className={styles.roleBadge} testId="workspace-role" />}
      <Link to="/workspaces" className={iconLink(styles.manageLink ?? "")} aria-label={manage} title={manage} data-testid="manage-workspaces">
        <Settings2 size={18} aria-hidden="true" />
        {pending > 0 && (
          <span className={styles.count} aria-hidden="true" data-testid="pending-invitations">
            {pending}
          </span>
        )}
      </Link>
      <Link
        to="/workspaces"
        search={{ create: true }}
        className={iconLink(styles.createLink ?? "")}
        aria-label={t("workspaces.createTeam")}
        title={t("workspaces.createTeam")}
        data-testid="create-workspace"
      >
        <Plus size={18} aria-hidden="true" />
      </Link>
    </div>
  );
}
