// A team workspace's invitations, for its owners and editors: invite an e-mail address with a role
// (editors offer editor and viewer; owners also owner), and the pending invitations, each withdrawn
// by those who could have sent it.
import { useMutation } from "@tanstack/react-query";
import { Send, Undo2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import type { Workspace, WorkspaceInvitation, WorkspaceRole } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert, SelectInput, TextField } from "../../forms/fields";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { inviteEmailProblem, normalizeEmail } from "./forms";
import { canWithdraw, workspaceOffer } from "./permissions";
import { useRefreshWorkspaces } from "./useRefreshWorkspaces";

interface InviteSectionProps {
  workspace: Workspace;
  invitations: WorkspaceInvitation[];
}

export function InviteSection({ workspace, invitations }: InviteSectionProps) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  const format = useFormatters();
  const refresh = useRefreshWorkspaces();
  const standing = { kind: workspace.kind, role: workspace.role };
  // The owner count does not matter for inviting.
  const roles = workspaceOffer(standing, 1).inviteRoles;
  const [email, setEmail] = useState("");
  // The least powerful role first: nobody gets more than they were meant to by a hurried click.
  const [role, setRole] = useState<WorkspaceRole>("viewer");
  const [problem, setProblem] = useState<string | undefined>();

  const invite = useMutation({
    mutationFn: (body: { email: string; role: WorkspaceRole }) => endpoints.inviteToWorkspace(api, workspace.id, body),
    networkMode: "always",
    onSuccess: async ({ invitation }) => {
      setEmail("");
      setRole("viewer");
      await refresh();
      notify("success", t("workspaces.invite.sent", { email: invitation.email }));
    },
  });

  const withdraw = useMutation({
    mutationFn: (invitation: WorkspaceInvitation) => endpoints.revokeInvitation(api, workspace.id, invitation.id),
    networkMode: "always",
    onSuccess: async (_nothing, invitation) => {
      await refresh();
      notify("success", t("workspaces.invite.withdrawn", { email: invitation.email }));
    },
    onError: async (error) => {
      notify("error", errorText(error));
      await refresh();
    },
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = inviteEmailProblem(email);
    if (found) {
      setProblem(found === "empty" ? t("workspaces.invite.emailRequired") : t("auth.emailInvalid"));
      return;
    }
    setProblem(undefined);
    invite.mutate({ email: normalizeEmail(email), role });
  }

  return (
    <section className="card" aria-labelledby="ws-invite-title" data-testid="invitations">
      <h2 id="ws-invite-title" className="section-title">
        {t("workspaces.invite.title")}
      </h2>
      <p className="section-text">{t("workspaces.invite.text")}</p>
      {roles.length > 0 && (
        <form className="ws-inline-form" onSubmit={submit} noValidate aria-labelledby="ws-invite-title">
          <TextField
            label={t("workspaces.invite.emailLabel")}
            name="invite-email"
            type="email"
            autoComplete="off"
            spellCheck={false}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={problem}
          />
          <SelectInput
            label={t("workspaces.invite.roleLabel")}
            name="invite-role"
            hint={t(`workspaces.roleHelp.${role}`)}
            value={role}
            onChange={(event) => setRole(event.target.value as WorkspaceRole)}
          >
            {[...roles].reverse().map((r) => (
              <option key={r} value={r}>
                {t(`workspaces.role.${r}`)}
              </option>
            ))}
          </SelectInput>
          <button type="submit" className="button button-primary" disabled={invite.isPending}>
            <Send size={16} aria-hidden="true" />
            {invite.isPending ? t("workspaces.invite.sending") : t("workspaces.invite.submit")}
          </button>
        </form>
      )}
      {invite.isError && <FormAlert>{errorText(invite.error)}</FormAlert>}

      <h3 className="ws-subtitle" id="ws-pending-title">
        {t("workspaces.invite.pending")}
      </h3>
      {invitations.length === 0 ? (
        <p className="ws-note">{t("workspaces.invite.none")}</p>
      ) : (
        <ul className="ws-list" aria-labelledby="ws-pending-title">
          {invitations.map((invitation) => (
            <li key={invitation.id} className="ws-row" data-testid="pending-invitation" data-email={invitation.email}>
              <div className="ws-row-main">
                <span className="ws-row-title">{invitation.email}</span>
                <span className="ws-row-meta">
                  {[
                    t(`workspaces.role.${invitation.role}`),
                    invitation.invitedByEmail ? t("workspaces.invite.invitedBy", { email: invitation.invitedByEmail }) : null,
                    invitation.expired ? null : t("workspaces.invite.validUntil", { date: format.date(invitation.expiresAt, { dateStyle: "medium" }) }),
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
              </div>
              <div className="ws-row-actions">
                {invitation.expired && <span className="badge badge-warning">{t("workspaces.invite.expired")}</span>}
                {canWithdraw(standing, invitation.role) && (
                  <button
                    type="button"
                    className="button button-ghost"
                    aria-label={t("workspaces.invite.withdrawLabel", { email: invitation.email })}
                    onClick={() => withdraw.mutate(invitation)}
                    disabled={withdraw.isPending}
                  >
                    <Undo2 size={16} aria-hidden="true" />
                    {t("workspaces.invite.withdraw")}
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
