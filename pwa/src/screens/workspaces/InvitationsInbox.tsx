// The invitations addressed to the signed-in user, each with Accept and Decline. Accepting makes the
// user a member: the workspace appears in the switcher (the lists and /me are asked again), and the
// toast offers to work in it at once.
import { useMutation } from "@tanstack/react-query";
import { Check, MailOpen, X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useApi } from "../../api/ApiProvider";
import { endpoints } from "../../api/endpoints";
import { useMyInvitations } from "../../api/queries";
import type { WorkspaceInvitation } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { useActiveWorkspace } from "../../workspace/activeWorkspace";
import { useRefreshWorkspaces } from "./useRefreshWorkspaces";

export function InvitationsInbox() {
  const { t } = useTranslation();
  const invitations = useMyInvitations();
  const list = invitations.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="card ws-inbox" aria-labelledby="ws-inbox-title" data-testid="my-invitations">
      <div className="ws-section-head">
        <h2 id="ws-inbox-title" className="section-title">
          <MailOpen size={16} aria-hidden="true" className="inline-icon" /> {t("workspaces.invitations.title")}
        </h2>
      </div>
      <ul className="ws-list">
        {list.map((invitation) => (
          <InvitationRow key={invitation.id} invitation={invitation} />
        ))}
      </ul>
    </section>
  );
}

function InvitationRow({ invitation }: { invitation: WorkspaceInvitation }) {
  const { t } = useTranslation();
  const api = useApi();
  const errorText = useErrorText();
  const format = useFormatters();
  const refresh = useRefreshWorkspaces();
  const { setActive } = useActiveWorkspace(undefined);
  const workspace = invitation.workspaceName;
  const role = t(`workspaces.roleName.${invitation.role}`);

  const accept = useMutation({
    mutationFn: () => endpoints.acceptInvitation(api, invitation.id),
    // Offline, it fails at once with its message instead of waiting for a network.
    networkMode: "always",
    onSuccess: async ({ workspace: joined }) => {
      await refresh();
      notify("success", t("workspaces.invitations.accepted", { workspace: joined.name }), {
        action: { label: t("workspaces.invitations.switchTo"), onClick: () => setActive(joined.id) },
      });
    },
    onError: async (error) => {
      notify("error", errorText(error));
      // Withdrawn, expired or answered elsewhere: the list says so once asked again.
      await refresh();
    },
  });
  const decline = useMutation({
    mutationFn: () => endpoints.declineInvitation(api, invitation.id),
    // Offline, it fails at once with its message instead of waiting for a network.
    networkMode: "always",
    onSuccess: async () => {
      await refresh();
      notify("success", t("workspaces.invitations.declined", { workspace }));
    },
    onError: async (error) => {
      notify("error", errorText(error));
      await refresh();
    },
  });
  const busy = accept.isPending || decline.isPending;

  return (
    <li className="ws-row" data-testid="invitation-for-me">
      <div className="ws-row-main">
        <span className="ws-row-title">{workspace}</span>
        <span className="ws-row-meta">
          {invitation.invitedByEmail
            ? t("workspaces.invitations.from", { inviter: invitation.invitedByEmail, role })
            : t("workspaces.invitations.fromUnknown", { role })}{" "}
          {t("workspaces.invitations.validUntil", { date: format.date(invitation.expiresAt, { dateStyle: "medium" }) })}
        </span>
      </div>
      <div className="ws-row-actions">
        <button
          type="button"
          className="button button-ghost"
          aria-label={t("workspaces.invitations.declineLabel", { workspace })}
          onClick={() => decline.mutate()}
          disabled={busy}
        >
          <X size={16} aria-hidden="true" />
          {t("workspaces.invitations.decline")}
        </button>
        <button
          type="button"
          className="button button-primary"
          aria-label={t("workspaces.invitations.acceptLabel", { workspace })}
          onClick={() => accept.mutate()}
          disabled={busy}
        >
          <Check size={16} aria-hidden="true" />
          {t("workspaces.invitations.accept")}
        </button>
      </div>
    </li>
  );
}
