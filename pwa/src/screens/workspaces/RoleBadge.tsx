import { useTranslation } from "react-i18next";
import type { WorkspaceRole } from "../../api/types";
import { Badge, type BadgeTone } from "../../ui/Badge";

/** The caller's role in a workspace: seen as the role's name, heard as "Your role: …". */
export function RoleBadge({ role, tone = "success", className, testId }: { role: WorkspaceRole; tone?: BadgeTone; className?: string; testId?: string }) {
  const { t } = useTranslation();
  const name = t(`workspaces.role.${role}`);
  const said = t("workspaces.yourRole", { role: name });
  return (
    <Badge tone={tone} className={className} data-testid={testId} data-role={role} title={said}>
      <span aria-hidden="true">{name}</span>
      <span className="visually-hidden">{said}</span>
    </Badge>
  );
}
