// The members of a workspace with their roles. Owners change roles and remove members; anyone
// leaves a team workspace except its last owner. Removing and leaving ask for confirmation first.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { LogOut, UserMinus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { queryKeys } from "../../api/queries";
import type { Me, Workspace, WorkspaceDetail, WorkspaceMember, WorkspaceRole } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert } from "../../forms/fields";
import { Modal } from "../../shell/Modal";
import { initials } from "../../shell/UserMenu";
import { notify } from "../../toast/toast";
import { memberName } from "./forms";
import { memberOffer, ownerCount, workspaceOffer } from "./permissions";
import { useRefreshWorkspaces } from "./useRefreshWorkspaces";

interface MembersSectionProps {
  workspace: Workspace;
  members: WorkspaceMember[];
  me: Me;
  /** The signed-in user left the workspace. */
  onLeft: () => void;
}

type Confirmation = { kind: "remove"; member: WorkspaceMember } | { kind: "leave"; member: WorkspaceMember };

export function MembersSection({ workspace, members, me, onLeft }: MembersSectionProps) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const refresh = useRefreshWorkspaces();
  const [confirming, setConfirming] = useState<Confirmation | null>(null);
  const owners = ownerCount(members);
  const standing = { kind: workspace.kind, role: workspace.role, userId: me.user.id };
  const self = members.find((m) => m.userId === me.user.id);
  const lastOwnerOfTeam = workspace.kind === "team" && self?.role === "owner" && !workspaceOffer(standing, owners).leave;

  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: WorkspaceMember; role: WorkspaceRole }) =>
      endpoints.changeMemberRole(api, workspace.id, member.userId, role),
    networkMode: "always",
    onSuccess: async ({ member }) => {
      queryClient.setQueryData<WorkspaceDetail>(queryKeys.workspace(workspace.id), (old) =>
        old ? { ...old, members: old.members.map((m) => (m.userId === member.userId ? member : m)) } : old,
      );
      await refresh();
      notify("success", t("workspaces.members.roleChanged", { name: memberName(member), role: t(`workspaces.roleName.${member.role}`) }));
    },
    onError: async (error) => {
      notify("error", errorText(error));
      // The select shows the role the server keeps.
      await refresh();
    },
  });

  const remove = useMutation({
    mutationFn: (member: WorkspaceMember) => endpoints.removeMember(api, workspace.id, member.userId),
    networkMode: "always",
    onSuccess: async (_nothing, member) => {
      setConfirming(null);
      if (member.userId === me.user.id) {
        queryClient.removeQueries({ queryKey: queryKeys.workspace(workspace.id), exact: true });
        notify("success", t("workspaces.members.left", { workspace: workspace.name }));
        onLeft();
        await refresh();
        return;
      }
      await refresh();
      notify("success", t("workspaces.members.removed", { name: memberName(member), workspace: workspace.name }));
    },
  });

  return (
    <section className="card" aria-labelledby="ws-members-title" data-testid="members">
      <div className="ws-section-head">
        <h2 id="ws-members-title" className="section-title">
          {t("workspaces.members.title")}
        </h2>
        <span className="ws-count-text">{t("workspaces.members.count", { count: members.length })}</span>
      </div>
      <ul className="ws-list" aria-labelledby="ws-members-title">
        {members.map((member) => {
          const offer = memberOffer(standing, member, owners);
          const name = memberName(member);
          const isMe = member.userId === me.user.id;
          return (
            <li key={member.userId} className="ws-row" data-testid="member-row" data-email={member.email}>
              <span className="ws-avatar" aria-hidden="true">
                {initials({ firstName: member.firstName, lastName: member.lastName, email: member.email })}
              </span>
              <div className="ws-row-main">
                <span className="ws-row-title">
                  {name}
                  {isMe && <span className="ws-count-text"> ({t("workspaces.members.you")})</span>}
                </span>
                {name !== member.email && <span className="ws-row-meta">{member.email}</span>}
              </div>
              <div className="ws-row-actions">
                {offer.otherRoles.length > 0 ? (
                  <select
                    className="input input-select ws-role-select"
                    aria-label={t("workspaces.members.roleOf", { name })}
                    value={member.role}
                    disabled={changeRole.isPending}
                    onChange={(event) => changeRole.mutate({ member, role: event.target.value as WorkspaceRole })}
                  >
                    {[member.role, ...offer.otherRoles].map((role) => (
                      <option key={role} value={role}>
                        {t(`workspaces.role.${role}`)}
                      </option>
                    ))}
                  </select>
                ) : (
                  <span className="badge" data-testid="member-role" data-role={member.role}>
                    {t(`workspaces.role.${member.role}`)}
                  </span>
                )}
                {offer.remove && (
                  <button
                    type="button"
                    className="button button-danger"
                    aria-label={t("workspaces.members.removeLabel", { name })}
                    onClick={() => setConfirming({ kind: "remove", member })}
                  >
                    <UserMinus size={16} aria-hidden="true" />
                    {t("workspaces.members.remove")}
                  </button>
                )}
                {offer.leave && (
                  <button type="button" className="button" onClick={() => setConfirming({ kind: "leave", member })}>
                    <LogOut size={16} aria-hidden="true" />
                    {t("workspaces.members.leave")}
                  </button>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {lastOwnerOfTeam && members.length > 1 && <p className="ws-note setting-panel">{t("workspaces.members.lastOwner")}</p>}

      {confirming && (
        <Modal
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
          onCancel={() => {
            if (!remove.isPending) {
              remove.reset();
              setConfirming(null);
            }
          }}
          testId="confirm-member-change"
        >
          {remove.isError && <FormAlert>{errorText(remove.error)}</FormAlert>}
          <div className="form-actions">
            <button
              type="button"
              className="button button-ghost"
              onClick={() => {
                remove.reset();
                setConfirming(null);
              }}
              disabled={remove.isPending}
              data-autofocus
            >
              {t("common.cancel")}
            </button>
            <button
              type="button"
              className="button button-danger-strong"
              onClick={() => remove.mutate(confirming.member)}
              disabled={remove.isPending}
            >
              {confirming.kind === "leave" ? t("workspaces.members.leaveConfirm") : t("workspaces.members.removeConfirm")}
            </button>
          </div>
        </Modal>
      )}
    </section>
  );
}
