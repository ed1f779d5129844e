// A team workspace's invitations, for its owners and editors: invite an e-mail address with a role
// (editors offer editor and viewer; owners also owner), and the pending invitations, each withdrawn
// by those who could have sent it. The form is the shared schema's invitationRequest.
import { invitationRequestSchema, type InvitationRequest } from "@patrimonio/shared-schema";
import { Send, Undo2 } from "lucide-react";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { OfferedInvitation, Workspace, WorkspaceRole } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { useInviteMutation, useRevokeInvitationMutation } from "../../api/workspaces";
import formStyles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { useSchemaForm } from "../../forms/schemaForm";
import { useFormatters } from "../../i18n/useFormatters";
import { notify } from "../../toast/toast";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { Field } from "../../ui/Field";
import { Select } from "../../ui/Select";
import { TextInput } from "../../ui/TextInput";
import styles from "./Workspaces.module.css";

/** The address as the server keeps it: trimmed and in lower case. */
function asTheServerKeepsIt(values: InvitationRequest): InvitationRequest {
  return { ...values, email: values.email.trim().toLowerCase() };
}

interface InviteSectionProps {
  workspace: Workspace;
  /** The roles the caller may invite with, as the server answered (most powerful first). */
  inviteRoles: WorkspaceRole[];
  invitations: OfferedInvitation[];
}

export function InviteSection({ workspace, inviteRoles: roles, invitations }: InviteSectionProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const format = useFormatters();
  // The least powerful role first: nobody gets more than they were meant to by a hurried click.
  const form = useSchemaForm(invitationRequestSchema, { defaultValues: { email: "", role: "viewer" }, prepare: asTheServerKeepsIt });
  const role = form.watch("role") as WorkspaceRole;

  const invite = useInviteMutation(workspace.id, {
    onSuccess: ({ invitation }) => {
      form.reset({ email: "", role: "viewer" });
      notify("success", t("workspaces.invite.sent", { email: invitation.email }));
    },
  });
  const withdraw = useRevokeInvitationMutation(workspace.id, {
    onSuccess: (_nothing, invitation) => notify("success", t("workspaces.invite.withdrawn", { email: invitation.email })),
    onError: (error) => notify("error", errorText(error)),
  });

  return (
    <Card title={t("workspaces.invite.title")} description={t("workspaces.invite.text")} data-testid="invitations">
      {roles.length > 0 && (
        <form className={formStyles.inline} onSubmit={form.submit((values) => invite.mutateAsync(values))} noValidate aria-label={t("workspaces.invite.title")}>
          <Field label={t("workspaces.invite.emailLabel")} error={form.errorText("email")} required>
            <TextInput type="email" autoComplete="off" spellCheck={false} {...form.register("email")} />
          </Field>
          <Field label={t("workspaces.invite.roleLabel")} hint={t(`workspaces.roleHelp.${role}`)} error={form.errorText("role")}>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Select {...field} options={[...roles].reverse().map((r) => ({ value: r, label: t(`workspaces.role.${r}`) }))} />
              )}
            />
          </Field>
          <Button type="submit" variant="primary" icon={<Send size={16} />} loading={invite.isPending} loadingText={t("workspaces.invite.sending")}>
            {t("workspaces.invite.submit")}
          </Button>
        </form>
      )}
      <FormError form={form} />

      <h3 className={styles.subtitle} id={`pending-${workspace.id}`}>
        {t("workspaces.invite.pending")}
      </h3>
      {invitations.length === 0 ? (
        <p className={styles.note}>{t("workspaces.invite.none")}</p>
      ) : (
        <ul className={styles.list} aria-labelledby={`pending-${workspace.id}`}>
          {invitations.map((invitation) => (
            <li key={invitation.id} className={styles.row} data-testid="pending-invitation" data-email={invitation.email}>
              <div className={styles.rowMain}>
                <span className={styles.rowTitle}>{invitation.email}</span>
                <span className={styles.rowMeta}>
                  {[
                    t(`workspaces.role.${invitation.role}`),
                    invitation.invitedByEmail ? t("workspaces.invite.invitedBy", { email: invitation.invitedByEmail }) : null,
                    invitation.expired ? null : t("workspaces.invite.validUntil", { date: format.date(invitation.expiresAt, { dateStyle: "medium" }) }),
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </span>
              </div>
              <div className={styles.rowActions}>
                {invitation.expired && <Badge tone="warning">{t("workspaces.invite.expired")}</Badge>}
                {invitation.actions.withdraw && (
                  <Button
                    variant="ghost"
                    icon={<Undo2 size={16} />}
                    aria-label={t("workspaces.invite.withdrawLabel", { email: invitation.email })}
                    onClick={() => withdraw.mutate(invitation)}
                    disabled={withdraw.isPending}
                  >
                    {t("workspaces.invite.withdraw")}
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
