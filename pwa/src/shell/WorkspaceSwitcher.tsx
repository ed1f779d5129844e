import { Building2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useWorkspaces } from "../api/queries";
import type { Workspace } from "../api/types";
import { WorkspaceSwitcherActions } from "../screens/workspaces/SwitcherActions";
import { useActiveWorkspace } from "../workspace/activeWorkspace";
import { SelectField } from "./SelectField";

/**
 * The top bar's workspace switcher: personal and team workspaces (GET /workspaces; offline, the list
 * /me gave), the choice kept on the device.
 */
export function WorkspaceSwitcher({ fallback }: { fallback: Workspace[] }) {
  const { t } = useTranslation();
  const { data } = useWorkspaces();
  const workspaces = data ?? fallback;
  const { active, setActive } = useActiveWorkspace(workspaces);
  if (workspaces.length === 0 || !active) return null;
  const personal = workspaces.filter((w) => w.kind === "personal");
  const team = workspaces.filter((w) => w.kind === "team");
  const nameOf = (w: Workspace) => (w.kind === "personal" ? t("workspace.personalName", { name: w.name }) : w.name);
  const option = (w: Workspace) => (
    <option key={w.id} value={w.id}>
      {nameOf(w)}
    </option>
  );
  return (
    <>
    <SelectField
      label={t("workspace.label")}
      icon={Building2}
      data-testid="workspace-switcher"
      width="wide"
      // The active workspace's name whole, wrapping, where the select's one line would cut it.
      shown={nameOf(active)}
      value={active.id}
      onChange={(event) => setActive(event.target.value)}
    >
      {personal.length > 0 && <optgroup label={t("workspace.personal")}>{personal.map(option)}</optgroup>}
      {team.length > 0 && <optgroup label={t("workspace.team")}>{team.map(option)}</optgroup>}
    </SelectField>
    {/* The role in the active workspace, "Manage workspaces" (with pending invitations) and "Create team workspace". */}
    <WorkspaceSwitcherActions active={active} />
    </>
  );
}
