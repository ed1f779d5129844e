// The invitations addressed to the signed-in user, each with Accept and Decline. Accepting makes the
// user a member: the workspace appears in the switcher (the lists and /me are asked again), and the
// toast offers to work in it at once.
import { Check, MailOpen, X } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { WorkspaceInvitation } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { useAcceptInvitationMutation, useDeclineInvitationMutation, useMyInvitations } from "../../api/workspaces";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { useActiveWorkspace } from "../../workspace/activeWorkspace";
import styles from "./Workspaces.module.css";

export function InvitationsInbox() {
  const { t } = useTranslation();
  const invitations = useMyInvitations();
  const list = invitations.data ?? [];
  if (list.length === 0) return null;
  return (
    <Card title={t("workspaces.invitations.title")} icon={<MailOpen size={20} />} className={styles.inbox} data-testid="my-invitations">
      <ul className={styles.list}>
        {list.map((invitation) => (
          <InvitationRow key={invitation.id} invitation={invitation} />
        ))}
      </ul>
    </Card>
  );
}

function InvitationRow({ invitation }: { invitation: WorkspaceInvitation }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useFormatters();
  const { setActive } = useActiveWorkspace(undefined);
  const workspace = invitation.workspaceName;
  const role = t(`workspaces.roleName.${invitation.role}`);
  const failed = (error: Error) => notify("error", errorText(error));

  const accept = useAcceptInvitationMutation(invitation.id, {
    onSuccess: ({ workspace: joined }) =>
      notify("success", t("workspaces.invitations.accepted", { workspace: joined.name }), {
        action: { label: t("workspaces.invitations.switchTo"), onClick: () => setActive(joined.id) },
      }),
    onError: failed,
  });
  const decline = useDeclineInvitationMutation(invitation.id, {
    onSuccess: () => notify("success", t("workspaces.invitations.declined", { workspace })),
    onError: failed,
  });
  const busy = accept.isPending || decline.isPending;

  return (
    <li className={styles.row} data-testid="invitation-for-me">
      <div className={styles.rowMain}>
        <span className={styles.rowTitle}>{workspace}</span>
        <span className={styles.rowMeta}>
          {invitation.invitedByEmail
            ? t("workspaces.invitations.from", { inviter: invitation.invitedByEmail, role })
            : t("workspaces.invitations.fromUnknown", { role })}{" "}
          {t("workspaces.invitations.validUntil", { date: format.date(invitation.expiresAt, { dateStyle: "medium" }) })}
        </span>
      </div>
      <div className={styles.rowActions}>
        <Button
          variant="ghost"
          icon={<X size={16} />}
          aria-label={t("workspaces.invitations.declineLabel", { workspace })}
          onClick={() => decline.mutate()}
          disabled={busy && !decline.isPending}
          loading={decline.isPending}
        >
          {t("workspaces.invitations.decline")}
        </Button>
        <Button
          variant="primary"
          icon={<Check size={16} />}
          aria-label={t("workspaces.invitations.acceptLabel", { workspace })}
          onClick={() => accept.mutate()}
          disabled={busy && !accept.isPending}
          loading={accept.isPending}
        >
          {t("workspaces.invitations.accept")}
        </Button>
      </div>
    </li>
  );
}
