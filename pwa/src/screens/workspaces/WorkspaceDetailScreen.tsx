// /workspaces/$workspaceId: one workspace — its name (owners rename it), its members and their roles,
// its invitations (owners and editors), leaving it and, for its owners, deleting it. What is offered
// is what the server says the caller may do (the detail's actions); the server decides every call and
// its refusals are shown as it words them.
import { WORKSPACE_NAME_MAX, workspaceNameRequestSchema } from "@patrimonio/shared-schema";
import { Link } from "@tanstack/react-router";
import { ArrowLeft, Check, CircleAlert, Lock } from "lucide-react";
import { useTranslation } from "react-i18next";
import type { ReactNode } from "react";
import { ERROR_CODES, isApiError } from "../../api/client";
import { useMe } from "../../api/queries";
import type { Me, Workspace, WorkspaceDetail } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { useRenameWorkspaceMutation, useWorkspace, useWorkspaces } from "../../api/workspaces";
import formStyles from "../../forms/form.module.css";
import { FormError } from "../../forms/FormError";
import { trimFields, useSchemaForm } from "../../forms/schemaForm";
import { RoutePending } from "../../router/fallbacks";
import { NeedsConnection } from "../../shell/NeedsConnection";
import { notify } from "../../toast/toast";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { EmptyState } from "../../ui/EmptyState";
import { Field } from "../../ui/Field";
import { PageHeader } from "../../ui/PageHeader";
import { TextInput } from "../../ui/TextInput";
import { useActiveWorkspace } from "../../workspace/activeWorkspace";
import { DeleteWorkspace } from "./DeleteWorkspace";
import { InviteSection } from "./InviteSection";
import { MembersSection } from "./MembersSection";
import { RoleBadge } from "./RoleBadge";
import { cx } from "../../ui/cx";
import page from "../page.module.css";
import styles from "./Workspaces.module.css";

interface WorkspaceDetailScreenProps {
  workspaceId: string;
  /** Back to the list, after leaving or deleting the workspace. */
  onGone: () => void;
}

/** The page when the workspace cannot be shown: why, and what can be done. */
function Unavailable({ text, action, testId }: { text: string; action?: ReactNode; testId: string }) {
  const { t } = useTranslation();
  return (
    <div className={cx(page.page, page.medium, page.stack)}>
      <BackLink />
      <EmptyState icon={<CircleAlert size={24} />} headingLevel={1} title={t("workspaces.detail.unavailable")} text={text} action={action} data-testid={testId} />
    </div>
  );
}

export function WorkspaceDetailScreen({ workspaceId, onGone }: WorkspaceDetailScreenProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const detail = useWorkspace(workspaceId);
  const { data: me } = useMe();

  if (detail.isError) {
    return (
      <Unavailable
        text={errorText(detail.error)}
        action={!isApiError(detail.error, ERROR_CODES.notFound) && <Button onClick={() => void detail.refetch()}>{t("common.retry")}</Button>}
        testId="workspace-unavailable"
      />
    );
  }
  if (!detail.data && detail.fetchStatus === "paused") {
    // Offline: the detail (members, invitations) is on the server only; say so instead of waiting.
    return <Unavailable text={t("workspaces.detail.offline")} testId="workspace-offline" />;
  }
  if (!detail.data || !me) return <RoutePending />;
  return <WorkspaceDetailView detail={detail.data} me={me} onGone={onGone} />;
}

function BackLink() {
  const { t } = useTranslation();
  return (
    <Link to="/workspaces" className={styles.back}>
      <ArrowLeft size={14} aria-hidden="true" />
      {t("workspaces.detail.back")}
    </Link>
  );
}

function WorkspaceDetailView({ detail, me, onGone }: { detail: WorkspaceDetail; me: Me; onGone: () => void }) {
  const { t } = useTranslation();
  const { workspace, members } = detail;
  const offer = detail.actions;
  const title = workspace.kind === "personal" ? t("workspace.personalName", { name: workspace.name }) : workspace.name;

  return (
    <div className={cx(page.page, page.medium, page.stack)} data-testid="workspace-detail">
      <PageHeader
        back={<BackLink />}
        title={title}
        subtitle={
          workspace.kind === "personal" && (
            <>
              <Lock size={13} aria-hidden="true" className={styles.inlineIcon} /> {t("workspaces.detail.personalNote")}
            </>
          )
        }
        actions={<WorkIn workspace={workspace} />}
      >
        <span className={styles.badges}>
          <Badge tone="outline">{t(`workspaces.kind.${workspace.kind}`)}</Badge>
          <RoleBadge role={workspace.role} testId="detail-role" />
        </span>
      </PageHeader>

      <NeedsConnection>{t("workspaces.detail.offline")}</NeedsConnection>

      {offer.rename && <RenameSection workspace={workspace} />}

      <MembersSection workspace={workspace} actions={detail.actions} members={members} me={me} onLeft={onGone} />

      {offer.seeInvitations && <InviteSection workspace={workspace} inviteRoles={detail.actions.inviteRoles} invitations={detail.invitations ?? []} />}

      {offer.delete && <DeleteWorkspace workspace={workspace} onDeleted={onGone} />}
    </div>
  );
}

/** Makes this the workspace the app works in (the top bar's switcher follows). */
function WorkIn({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const { data: workspaces } = useWorkspaces();
  const { active, setActive } = useActiveWorkspace(workspaces);
  if (active?.id === workspace.id) {
    return (
      <span className={styles.note} data-testid="working-in">
        <Check size={14} aria-hidden="true" className={styles.inlineIcon} /> {t("workspaces.detail.workingIn")}
      </span>
    );
  }
  return <Button onClick={() => setActive(workspace.id)}>{t("workspaces.detail.workIn")}</Button>;
}

function RenameSection({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const form = useSchemaForm(workspaceNameRequestSchema, { defaultValues: { name: workspace.name }, prepare: trimFields("name") });
  const rename = useRenameWorkspaceMutation(workspace.id, {
    onSuccess: ({ workspace: renamed }) => {
      form.reset({ name: renamed.name });
      notify("success", t("workspaces.rename.renamed", { workspace: renamed.name }));
    },
  });
  const unchanged = form.watch("name").trim() === workspace.name;

  return (
    <Card title={t("workspaces.rename.title")}>
      <form className={formStyles.inline} onSubmit={form.submit((values) => rename.mutateAsync(values))} noValidate>
        <Field label={t("workspaces.rename.label")} hint={t("workspaces.create.nameHint", { max: WORKSPACE_NAME_MAX })} error={form.errorText("name")} required>
          <TextInput autoComplete="off" {...form.register("name")} />
        </Field>
        <Button type="submit" loading={rename.isPending} loadingText={t("common.saving")} disabled={unchanged}>
          {t("workspaces.rename.submit")}
        </Button>
      </form>
      <FormError form={form} />
    </Card>
  );
}
