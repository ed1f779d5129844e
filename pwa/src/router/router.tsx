// The route tree (code-based, no generated files) and the router factory. Each area's routes, with
// their guards and search parsing, live in their own file beside this one.
import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type RouterHistory } from "@tanstack/react-router";
import type { ApiClient } from "../api/client";
import { adminRouteTree, dashboardRoute, profileRoute, workspaceRoute, workspacesRoute } from "./appRoutes";
import { signInRoute, signUpRoute, verifyEmailRoute } from "./authRoutes";
import { ROUTER_DEFAULTS } from "./config";
import { NotFound, RouteError, RoutePending } from "./fallbacks";
import { onboardingRouteTree } from "./onboardingRoutes";
import { rootRoute } from "./root";

export type { RouterContext } from "./root";

export const routeTree = rootRoute.addChildren([
  dashboardRoute,
  profileRoute,
  adminRouteTree,
  workspacesRoute,
  workspaceRoute,
  signInRoute,
  signUpRoute,
  verifyEmailRoute,
  onboardingRouteTree,
]);

export function createAppRouter(options: { queryClient: QueryClient; api: ApiClient; history?: RouterHistory }) {
  return createRouter({
    routeTree,
    context: { queryClient: options.queryClient, api: options.api },
    ...(options.history ? { history: options.history } : {}),
    ...ROUTER_DEFAULTS,
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: RouteError,
    defaultPendingComponent: RoutePending,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}
