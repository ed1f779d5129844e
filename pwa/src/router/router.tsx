// The route tree (code-based, no generated files) and the router factory. Each area's routes, with
// their guards and search parsing, live in their own file beside this one; screens load lazily.
import type { QueryClient } from "@tanstack/react-query";
import { createRouter, type AnyRouter, type RouterHistory } from "@tanstack/react-router";
import type { i18n as I18n } from "i18next";
import type { ApiClient } from "../api/client";
import { appRouteTree } from "./appRoutes";
import { passwordForgotRoute, passwordResetRoute, signInRoute, signUpRoute, verifyEmailRoute } from "./authRoutes";
import { ROUTER_DEFAULTS } from "./config";
import { NotFound, RouteError, RoutePending } from "./fallbacks";
import { privacyRoute, termsRoute } from "./legalRoutes";
import { onboardingRouteTree } from "./onboardingRoutes";
import { publicLayoutRoute, rootRoute } from "./root";

export type { RouterContext } from "./root";

export const routeTree = rootRoute.addChildren([
  appRouteTree,
  publicLayoutRoute.addChildren([signInRoute, signUpRoute, verifyEmailRoute, passwordForgotRoute, passwordResetRoute, onboardingRouteTree]),
  termsRoute,
  privacyRoute,
]);

export function createAppRouter(options: { queryClient: QueryClient; api: ApiClient; i18n?: I18n; history?: RouterHistory }) {
  const router = createRouter({
    routeTree,
    context: { queryClient: options.queryClient, api: options.api, ...(options.i18n ? { i18n: options.i18n } : {}) },
    ...(options.history ? { history: options.history } : {}),
    ...ROUTER_DEFAULTS,
    // An unknown path shows Not Found at the root, in the layout that fits the visitor (not inside
    // a pathless layout that happens to match the start of every path).
    notFoundMode: "root",
    defaultNotFoundComponent: NotFound,
    defaultErrorComponent: RouteError,
    defaultPendingComponent: RoutePending,
  });
  fetchFirstPageCode(router);
  return router;
}

/**
 * Starts downloading the code of the first page's routes (layout and screen) at once, in parallel
 * with the guards' GET /me; left alone, the router asks for it only after beforeLoad. A failed
 * download (offline, not cached yet) shows when the route itself loads it.
 */
function fetchFirstPageCode(router: AnyRouter) {
  for (const match of router.matchRoutes(router.latestLocation)) {
    const route = (router.routesById as Record<string, AnyRouter["routeTree"] | undefined>)[match.routeId];
    if (route) void router.loadRouteChunk(route)?.catch(() => undefined);
  }
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module "@tanstack/react-router" {
  interface Register {
    router: AppRouter;
  }
}
