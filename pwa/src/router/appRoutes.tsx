// The signed-in app, inside the app shell: the dashboard, the profile, the admin area and the
// workspaces. Signed-out visitors go to /signin (and come back here after it); unfinished onboarding
// goes on at its step. Guards, search parsing and loaders stay here; each screen's code is loaded
// when the route is first visited or preloaded on intent.
import { createRoute, lazyRouteComponent, redirect } from "@tanstack/react-router";
import { bool, positiveInt, searchSchema, text, textList } from "./search";
import { workspaceQuery } from "../api/queries";
import { areaRoutes } from "./areaRoutes";
import { assetRoutes } from "./assetRoutes";
import { profileBillingRoute } from "./billingRoutes";
import { connectRoutes } from "./connectRoutes";
import { appLayoutRoute, guardApp, loadMeForGuard } from "./root";

export const dashboardRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.dashboard", deviceData: true, locales: ["dashboard", "money", "assets"] },
  component: lazyRouteComponent(() => import("../screens/DashboardScreen"), "DashboardScreen"),
});

/** /map?country=ES: the wealth map; `country` (ISO code, or "none" for assets without a tax
 * country) opens that country's list of assets. */
export const wealthMapSearchSchema = searchSchema({ country: text({ pattern: /^(?:[A-Z]{2}|none)$/ }) });

export const wealthMapRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/map",
  validateSearch: (search) => wealthMapSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.wealthMap", deviceData: true },
  component: lazyRouteComponent(() => import("../screens/map/WealthMapScreen"), "WealthMapScreen"),
});

export const profileRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/profile",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.profile" },
  component: lazyRouteComponent(() => import("../screens/profile/ProfileScreen"), "ProfileScreen"),
});

export const adminRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/admin",
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.admin" },
  component: lazyRouteComponent(() => import("../screens/admin/AdminLayout"), "AdminLayout"),
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
  staticData: { titleKey: "shell.titles.adminUsers" },
  component: lazyRouteComponent(() => import("../screens/admin/AdminUsersScreen"), "AdminUsersScreen"),
});

/** /admin/enums?type=&parentId=&levels=: the view of the enumerations screen (levels: a list,
 * default empty; also read comma-separated). */
export const adminEnumsSearchSchema = searchSchema({
  type: text({ max: 64 }),
  parentId: positiveInt,
  levels: textList({ max: 10, itemMax: 64 }),
});

export const adminEnumsRoute = createRoute({
  getParentRoute: () => adminRoute,
  path: "/enums",
  validateSearch: (search) => adminEnumsSearchSchema.parse(search),
  staticData: { titleKey: "shell.titles.adminEnums" },
  component: lazyRouteComponent(() => import("../screens/admin/enums/AdminEnumsScreen"), "AdminEnumsScreen"),
});

export const adminRouteTree = adminRoute.addChildren([adminIndexRoute, adminUsersRoute, adminEnumsRoute]);

/** /workspaces?create=true opens the dialog that creates a team workspace (the top bar links there). */
export const workspacesSearchSchema = searchSchema({ create: bool });

export const workspacesRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/workspaces",
  validateSearch: (search) => workspacesSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "shell.titles.workspaces" },
  component: lazyRouteComponent(() => import("./screens/WorkspacesRoute"), "WorkspacesRoute"),
});

export const workspaceRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/workspaces/$workspaceId",
  beforeLoad: guardApp,
  // Starts loading on intent; never waits (offline, the screen says what it can).
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(workspaceQuery(context.api, params.workspaceId));
  },
  staticData: { titleKey: "shell.titles.workspace" },
  component: lazyRouteComponent(() => import("./screens/WorkspaceRoute"), "WorkspaceRoute"),
});

export const appRouteTree = appLayoutRoute.addChildren([
  dashboardRoute,
  wealthMapRoute,
  profileRoute,
  profileBillingRoute,
  adminRouteTree,
  workspacesRoute,
  workspaceRoute,
  ...assetRoutes,
  ...areaRoutes,
  ...connectRoutes,
]);
