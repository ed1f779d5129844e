// /workspaces: the invitations waiting for an answer, my workspaces with my role in each, and the
// creation of a team workspace (a dialog, opened by ?create=true, so the top bar can link to it).
import { Link } from "@tanstack/react-router";
import { Plus, UsersRound, UserRound } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useMe } from "../../api/queries";
import type { Workspace } from "../../api/types";
import { useWorkspaces } from "../../api/workspaces";
import { FormError } from "../../forms/FormError";
import { RoutePending } from "../../router/fallbacks";
import { NeedsConnection } from "../../shell/NeedsConnection";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { PageHeader } from "../../ui/PageHeader";
import { useActiveWorkspace } from "../../workspace/activeWorkspace";
import { CreateWorkspaceDialog } from "./CreateWorkspaceDialog";
import { InvitationsInbox } from "./InvitationsInbox";
import { RoleBadge } from "./RoleBadge";
import { cx } from "../../ui/cx";
import page from "../page.module.css";
import styles from "./Workspaces.module.css";

interface WorkspacesScreenProps {
  /** Whether the creation dialog is open (the route's ?create=true). */
  creating: boolean;
  onCreatingChange: (open: boolean) => void;
  /** Opens a workspace (after it was created). */
  onOpen: (workspace: Workspace) => void;
}

export function WorkspacesScreen({ creating, onCreatingChange, onOpen }: WorkspacesScreenProps) {
  const { t } = useTranslation();
  const workspaces = useWorkspaces();
  // Offline (the list's query waits for a network), the list /me gave, as the top bar's switcher does.
  const { data: me } = useMe();
  const list = workspaces.data ?? (workspaces.fetchStatus === "paused" ? me?.workspaces : undefined);
  const { active } = useActiveWorkspace(list);

  return (
    <div className={cx(page.page, page.medium, page.stack)}>
      <PageHeader
        title={t("workspaces.title")}
        subtitle={t("workspaces.subtitle")}
        actions={
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => onCreatingChange(true)}>
            {t("workspaces.createTeam")}
          </Button>
        }
      />

      <NeedsConnection>{t("workspaces.offline")}</NeedsConnection>

      <InvitationsInbox />

      <Card title={t("workspaces.list.title")}>
        {!list && workspaces.isPending && <RoutePending />}
        {workspaces.isError && (
          <>
            <p className={styles.note}>{t("workspaces.list.loadFailed")}</p>
            <FormError error={workspaces.error} />
          </>
        )}
        {list && (
          <ul className={styles.list} data-testid="workspace-list">
            {list.map((workspace) => (
              <WorkspaceRow key={workspace.id} workspace={workspace} current={workspace.id === active?.id} />
            ))}
          </ul>
        )}
      </Card>

      {creating && <CreateWorkspaceDialog onCancel={() => onCreatingChange(false)} onCreated={(workspace) => onOpen(workspace)} />}
    </div>
  );
}

function WorkspaceRow({ workspace, current }: { workspace: Workspace; current: boolean }) {
  const { t } = useTranslation();
  const Icon = workspace.kind === "personal" ? UserRound : UsersRound;
  const name = workspace.kind === "personal" ? t("workspace.personalName", { name: workspace.name }) : workspace.name;
  return (
    <li className={styles.row} data-testid="workspace-row" data-workspace-id={workspace.id}>
      <span className={styles.avatar} aria-hidden="true">
        <Icon size={16} />
      </span>
      <div className={styles.rowMain}>
        <span className={styles.rowTitle}>
          <Link to="/workspaces/$workspaceId" params={{ workspaceId: workspace.id }}>
            {name}
          </Link>
        </span>
        <span className={styles.rowMeta}>{t(`workspaces.kind.${workspace.kind}`)}</span>
      </div>
      <div className={styles.rowActions}>
        {current && <Badge tone="outline">{t("workspaces.current")}</Badge>}
        <RoleBadge role={workspace.role} testId="workspace-row-role" />
      </div>
    </li>
  );
}
