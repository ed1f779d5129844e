// The signed-in app: the dashboard, the profile and the admin area. Signed-out visitors go to
// /signin (and come back here after it); unfinished onboarding goes on at its step.
import { createRoute, redirect } from "@tanstack/react-router";
import { decideAppRoute } from "../auth/guards";
import { AdminLayout } from "../screens/admin/AdminLayout";
import { AdminUsersScreen } from "../screens/admin/AdminUsersScreen";
import { DashboardScreen } from "../screens/DashboardScreen";
import { ProfileScreen } from "../screens/profile/ProfileScreen";
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
