// The signed-in app: the dashboard, the profile, the admin area and the workspaces. Signed-out
// visitors go to /signin (and come back here after it); unfinished onboarding goes on at its step.
import { createRoute, redirect } from "@tanstack/react-router";
import * as z from "zod";
import { workspaceQuery } from "../api/queries";
import { decideAppRoute } from "../auth/guards";
import { AdminLayout } from "../screens/admin/AdminLayout";
import { AdminUsersScreen } from "../screens/admin/AdminUsersScreen";
import { DashboardScreen } from "../screens/DashboardScreen";
import { ProfileScreen } from "../screens/profile/ProfileScreen";
import { WorkspaceDetailScreen } from "../screens/workspaces/WorkspaceDetailScreen";
import { WorkspacesScreen } from "../screens/workspaces/WorkspacesScreen";
import { enforce, loadMeForGuard, rootRoute, type RouterContext } from "./root";

async function guardApp({ context, location }: { context: RouterContext; location: { href: string } }) {
  enforce(decideAppRoute(await loadMeForGuard(context), location.href));
}

export const dashboardRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/",
  beforeLoad: guardApp,
  component: DashboardScreen,
});

export const profileRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/profile",
  beforeLoad: guardApp,
  component: ProfileScreen,
});

export const adminRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/admin",
  beforeLoad: guardApp,
  component: AdminLayout,
});

export const adminIndexRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/",
  beforeLoad: async ({ context }) => {
    const me = await loadMeForGuard(context);
    // Admins land on the user list; everyone else sees the layout's Access Denied screen.
    if (me?.user.isAdmin) throw redirect({ to: "/admin/users", replace: true });
  },
});

export const adminUsersRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/users",
  component: AdminUsersScreen,
});

export const adminRouteTree = adminRoute.addChildren([adminIndexRoute, adminUsersRoute]);

/** /workspaces?create=true opens the dialog that creates a team workspace (the top bar links there). */
export const workspacesSearchSchema = z.object({
  create: z.boolean().optional().catch(undefined),
});

export const workspacesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/workspaces",
  validateSearch: (search) => workspacesSearchSchema.parse(search),
  beforeLoad: guardApp,
  component: function WorkspacesRoute() {
    const { create } = workspacesRoute.useSearch();
    const navigate = workspacesRoute.useNavigate();
    return (
      <WorkspacesScreen
        creating={create === true}
        onCreatingChange={(open) => void navigate({ search: open ? { create: true } : {}, replace: true })}
        onOpen={(workspace) => void navigate({ to: "/workspaces/$workspaceId", params: { workspaceId: workspace.id } })}
      />
    );
  },
});

export const workspaceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/workspaces/$workspaceId",
  beforeLoad: guardApp,
  // Starts loading on intent; never waits (offline, the screen says what it can).
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(workspaceQuery(context.api, params.workspaceId));
  },
  component: function WorkspaceRoute() {
    const { workspaceId } = workspaceRoute.useParams();
    const navigate = workspaceRoute.useNavigate();
    return (
      <WorkspaceDetailScreen
        key={workspaceId}
        workspaceId={workspaceId}
        onGone={() => void navigate({ to: "/workspaces", replace: true })}
      />
    );
  },
});
