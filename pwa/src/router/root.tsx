// The root of the route tree, the two layouts under it, and the helpers every route file uses.
// - "app": the signed-in app shell (sidebar, top bar, device sync), loaded only when needed;
// - "public": the plain layout of sign-in, sign-up, verification, password reset and onboarding.
// The legal pages and Not Found at an unknown path pick one of the two by the session (AdaptiveLayout).
import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, createRoute, lazyRouteComponent, Outlet, redirect } from "@tanstack/react-router";
import type { ApiClient } from "../api/client";
import { meQuery } from "../api/queries";
import type { Me } from "../api/types";
import { decideAppRoute, type GuardDecision } from "../auth/guards";
import { PublicLayout } from "../shell/PublicLayout";
import { loadSyncModules } from "../shell/syncModules";
import { DocumentTitle } from "./title";

export interface RouterContext {
  queryClient: QueryClient;
  api: ApiClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: function Root() {
    return (
      <DocumentTitle>
        <Outlet />
      </DocumentTitle>
    );
  },
});

/** The signed-in app shell; its code and the device database's (two chunks) load with the first app screen. */
export const appLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "app",
  component: lazyRouteComponent(
    () => Promise.all([import("../shell/AppShell"), loadSyncModules()]).then(([module]) => module),
    "AppShell",
  ),
});

/** The plain layout of the pages before the app. */
export const publicLayoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: "public",
  component: PublicLayout,
});

/** /me for a guard: the cached answer while fresh, else asked again. */
export function loadMeForGuard(context: RouterContext): Promise<Me | null> {
  return context.queryClient.ensureQueryData(meQuery(context.api));
}

/** Carries out a guard's decision: nothing when allowed, else a router redirect (replacing history). */
export function enforce(decision: GuardDecision): void {
  switch (decision.kind) {
    case "allow":
      return;
    case "redirect-href":
      throw redirect({ href: decision.href, replace: true });
    case "redirect":
      throw redirect({
        to: decision.to,
        ...(decision.search ? { search: decision.search } : {}),
        ...(decision.hash ? { hash: decision.hash } : {}),
        replace: true,
      } as Parameters<typeof redirect>[0]);
  }
}

/** The guard of every signed-in screen: signed-out visitors go to /signin, unfinished onboarding goes
 * on at its step. */
export async function guardApp({ context, location }: { context: RouterContext; location: { href: string } }) {
  enforce(decideAppRoute(await loadMeForGuard(context), location.href));
}
