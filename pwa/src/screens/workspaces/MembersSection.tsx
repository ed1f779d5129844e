// A workspace's members with their roles: owners change roles and remove members, anyone but the
// last owner of a team leaves it. Removing, leaving and lowering one's own role (an owner who can
// only get it back from another owner) and making a member a viewer (which ends their bank and
// broker connections in the workspace) are confirmed in the kit's AlertDialog.
import { LogOut, UserMinus } from "lucide-react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Me, OfferedMember, Workspace, WorkspaceActions, WorkspaceMember, WorkspaceRole } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { useChangeMemberRoleMutation, useRemoveMemberMutation } from "../../api/workspaces";
import { FormError } from "../../forms/FormError";
import { initials } from "../../shell/Avatar";
import { notify } from "../../toast/toast";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { useFocusKeeper } from "../../ui/focusKeeper";
import { AlertDialog } from "../../ui/Dialog";
import { Select } from "../../ui/Select";
import { memberName } from "./memberName";
import styles from "./Workspaces.module.css";

interface MembersSectionProps {
  workspace: Workspace;
  /** What the caller may do to the workspace, as the server answered. */
  actions: WorkspaceActions;
  members: OfferedMember[];
  me: Me;
  /** The signed-in user left the workspace. */
  onLeft: () => void;
}

type Confirmation =
  | { kind: "remove"; member: WorkspaceMember }
  | { kind: "leave"; member: WorkspaceMember }
  | { kind: "ownRole"; member: WorkspaceMember; role: WorkspaceRole }
  | { kind: "viewer"; member: WorkspaceMember };

const memberKey = (member: OfferedMember) => member.userId;

export function MembersSection({ workspace, actions, members, me, onLeft }: MembersSectionProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const self = members.find((m) => m.userId === me.user.id);
  const lastOwnerOfTeam = workspace.kind === "team" && self?.role === "owner" && !actions.leave;

  const changeRole = useChangeMemberRoleMutation(workspace.id, {
    onSuccess: ({ member }) =>
      notify("success", t("workspaces.members.roleChanged", { name: memberName(member), role: t(`workspaces.roleName.${member.role}`) })),
    onError: (error) => notify("error", errorText(error)),
  });
  const remove = useRemoveMemberMutation(workspace.id, me.user.id, {
    onSuccess: (_nothing, member) => {
      setConfirming(null);
      if (member.userId === me.user.id) {
        notify("success", t("workspaces.members.left", { workspace: workspace.name }));
        onLeft();
        return;
      }
      notify("success", t("workspaces.members.removed", { name: memberName(member), workspace: workspace.name }));
    },
  });

  // A member removed with focus in their row (the confirmation) hands focus to the same control of
  // the row now in its place, or to the section when no row has one (ui/focusKeeper.ts).
  const root = useRef<HTMLElement>(null);
  useFocusKeeper(root, members, memberKey);

  function close() {
    if (remove.isPending) return;
    remove.reset();
    setConfirming(null);
  }

  return (
    <Card ref={root} tabIndex={-1} title={t("workspaces.members.title")} actions={<span className={styles.countText}>{t("workspaces.members.count", { count: members.length })}</span>} data-testid="members">
      <ul className={styles.list}>
        {members.map((member) => {
          const offer = member.actions;
          const name = memberName(member);
          const isMe = member.userId === me.user.id;
          return (
            <li key={member.userId} className={styles.row} data-testid="member-row" data-email={member.email} data-row-key={member.userId}>
              <span className={styles.avatar} aria-hidden="true">
                {initials({ firstName: member.firstName, lastName: member.lastName, email: member.email })}
              </span>
              <div className={styles.rowMain}>
                <span className={styles.rowTitle}>
                  {name}
                  {isMe && <span className={styles.countText}> ({t("workspaces.members.you")})</span>}
                </span>
                {name !== member.email && <span className={styles.rowMeta}>{member.email}</span>}
              </div>
              <div className={styles.rowActions}>
                {offer.roles.length > 0 ? (
                  <Select
                    className={styles.roleSelect}
                    data-control="role"
                    aria-label={t("workspaces.members.roleOf", { name })}
                    value={member.role}
                    disabled={changeRole.isPending}
                    onChange={(role) => {
                      if (role === member.role) return;
                      // Only owners change roles: one's own change gives up being an owner.
                      // Making someone a viewer ends their bank and broker connections here: asked first.
                      if (isMe) setConfirming({ kind: "ownRole", member, role: role as WorkspaceRole });
                      else if (role === "viewer") setConfirming({ kind: "viewer", member });
                      else changeRole.mutate({ member, role: role as WorkspaceRole });
                    }}
                    options={[member.role, ...offer.roles].map((role) => ({ value: role, label: t(`workspaces.role.${role}`) }))}
                  />
                ) : (
                  <Badge data-testid="member-role" data-role={member.role}>
                    {t(`workspaces.role.${member.role}`)}
                  </Badge>
                )}
                {offer.remove && (
                  <Button
                    variant="danger-outline"
                    icon={<UserMinus size={16} />}
                    aria-label={t("workspaces.members.removeLabel", { name })}
                    data-control="remove"
                    onClick={() => setConfirming({ kind: "remove", member })}
                  >
                    {t("workspaces.members.remove")}
                  </Button>
                )}
                {offer.leave && (
                  <Button icon={<LogOut size={16} />} onClick={() => setConfirming({ kind: "leave", member })} data-control="leave">
                    {t("workspaces.members.leave")}
                  </Button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {lastOwnerOfTeam && members.length > 1 && <p className={styles.note}>{t("workspaces.members.lastOwner")}</p>}

      {confirming?.kind === "ownRole" && (
        <AlertDialog
          open
          onOpenChange={(open) => !open && setConfirming(null)}
          title={t("workspaces.members.ownRoleTitle", { workspace: workspace.name })}
          description={
            t("workspaces.members.ownRoleText", { role: t(`workspaces.roleName.${confirming.role}`) }) +
            (confirming.role === "viewer" ? ` ${t("workspaces.members.ownConnectionsEnd")}` : "")
          }
          confirmLabel={t("workspaces.members.ownRoleConfirm")}
          onConfirm={() => {
            changeRole.mutate({ member: confirming.member, role: confirming.role });
            setConfirming(null);
          }}
          data-testid="confirm-own-role"
        />
      )}
      {confirming?.kind === "viewer" && (
        <AlertDialog
          open
          onOpenChange={(open) => !open && setConfirming(null)}
          title={t("workspaces.members.viewerTitle", { name: memberName(confirming.member) })}
          description={t("workspaces.members.viewerText", { name: memberName(confirming.member), workspace: workspace.name })}
          confirmLabel={t("workspaces.members.viewerConfirm")}
          onConfirm={() => {
            changeRole.mutate({ member: confirming.member, role: "viewer" });
            setConfirming(null);
          }}
          data-testid="confirm-viewer"
        />
      )}
      {confirming && (confirming.kind === "remove" || confirming.kind === "leave") && (
        <AlertDialog
          open
          onOpenChange={(open) => !open && close()}
          title={
            confirming.kind === "leave"
              ? t("workspaces.members.leaveTitle", { workspace: workspace.name })
              : t("workspaces.members.removeTitle", { name: memberName(confirming.member) })
          }
          description={
            confirming.kind === "leave"
              ? t("workspaces.members.leaveText")
              : t("workspaces.members.removeText", { name: memberName(confirming.member), workspace: workspace.name })
          }
          confirmLabel={confirming.kind === "leave" ? t("workspaces.members.leaveConfirm") : t("workspaces.members.removeConfirm")}
          onConfirm={() => remove.mutate(confirming.member)}
          loading={remove.isPending}
          error={remove.isError && <FormError error={remove.error} />}
          data-testid="confirm-member-change"
        />
      )}
    </Card>
  );
}
