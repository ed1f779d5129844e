// The root of the route tree (the app shell) and the helpers every route file uses.
import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, redirect } from "@tanstack/react-router";
import type { ApiClient } from "../api/client";
import { meQuery } from "../api/queries";
import type { Me } from "../api/types";
import type { GuardDecision } from "../auth/guards";
import { AppShell } from "../shell/AppShell";

export interface RouterContext {
  queryClient: QueryClient;
  api: ApiClient;
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: AppShell,
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
