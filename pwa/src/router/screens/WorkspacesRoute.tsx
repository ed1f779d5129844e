// /workspaces: the list, with ?create=true opening the dialog that creates a team workspace.
import { getRouteApi } from "@tanstack/react-router";
import { WorkspacesScreen } from "../../screens/workspaces/WorkspacesScreen";

const route = getRouteApi("/app/workspaces");

export function WorkspacesRoute() {
  const { create } = route.useSearch();
  const navigate = route.useNavigate();
  return (
    <WorkspacesScreen
      creating={create === true}
      onCreatingChange={(open) => void navigate({ search: open ? { create: true } : {}, replace: true })}
      onOpen={(workspace) => void navigate({ to: "/workspaces/$workspaceId", params: { workspaceId: workspace.id } })}
    />
  );
}
