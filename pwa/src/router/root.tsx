// The root of the route tree, the two layouts under it, and the helpers every route file uses.
// - "app": the signed-in app shell (sidebar, top bar, device sync), loaded only when needed;
// - "public": the plain layout of sign-in, sign-up, verification, password reset and onboarding.
// The legal pages and Not Found at an unknown path pick one of the two by the session (AdaptiveLayout).
import type { QueryClient } from "@tanstack/react-query";
import type { i18n as I18n } from "i18next";
import { createRootRouteWithContext, createRoute, lazyRouteComponent, Outlet, redirect } from "@tanstack/react-router";
import type { ApiClient } from "../api/client";
import { meQuery } from "../api/queries";
import type { Me } from "../api/types";
import { decideAppRoute, type GuardDecision } from "../auth/guards";
import { loadRouteLocales } from "../i18n/routeLocales";
import { PublicLayout } from "../shell/PublicLayout";
import { loadSyncModules } from "../shell/syncModules";
import { DocumentTitle } from "./title";

export interface RouterContext {
  queryClient: QueryClient;
  api: ApiClient;
  /** The app's i18next instance when it loads texts in parts (main.tsx); tests' instances have them all. */
  i18n?: I18n;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  // The lazy locale sections of the matched routes (staticData.locales, i18n/routeLocales.ts) are in
  // before anything renders: no raw keys.
  beforeLoad: ({ context, matches }) => loadRouteLocales(context.i18n, matches),
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
  // The locale sections the shell uses beyond the core ones (i18n/sections.ts).
  staticData: { locales: ["workspaces"] },
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
