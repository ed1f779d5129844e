// /workspaces/$workspaceId: one workspace; back to the list when it is gone.
import { getRouteApi } from "@tanstack/react-router";
import { WorkspaceDetailScreen } from "../../screens/workspaces/WorkspaceDetailScreen";

const route = getRouteApi("/app/workspaces/$workspaceId");

export function WorkspaceRoute() {
  const { workspaceId } = route.useParams();
  const navigate = route.useNavigate();
  return (
    <WorkspaceDetailScreen key={workspaceId} workspaceId={workspaceId} onGone={() => void navigate({ to: "/workspaces", replace: true })} />
  );
}
