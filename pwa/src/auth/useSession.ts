import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useCallback } from "react";
import { useApi } from "../api/ApiProvider";
import { meQuery } from "../api/queries";
import { queryKeys } from "../api/queryKeys";
import type { Me } from "../api/types";
import { AFTER_SIGN_IN_PATH, onboardingPath, safeRedirect } from "./guards";
import { announceSessionChanged } from "./signOut";

/** Reads /me again now (after sign-in, a step done, …) and returns it. */
export function useRefreshMe(): () => Promise<Me | null> {
  const api = useApi();
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.fetchQuery({ ...meQuery(api), staleTime: 0 }), [api, queryClient]);
}

/** Queries that hold nothing of a user's: kept across a change of session. */
const SESSIONLESS: readonly (readonly string[])[] = [queryKeys.me, queryKeys.authConfig, queryKeys.stripeProducts];

/**
 * A sign-in starts a session: nothing this tab read or unlocked for an earlier one (another user's
 * workspaces, passkeys, subscriptions, an open vault) carries over, even for a moment while it is
 * read again.
 */
export function forgetPreviousSession(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => !SESSIONLESS.some((key) => key.length === q.queryKey.length && key.every((part, i) => q.queryKey[i] === part)) });
  announceSessionChanged();
}

/**
 * After a successful sign-in: the dashboard (spec) or the page the visitor first asked for — unless
 * onboarding is unfinished, which goes on where it stopped.
 */
export function useFinishSignIn(redirect: string | undefined): () => Promise<void> {
  const refreshMe = useRefreshMe();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    forgetPreviousSession(queryClient);
    const me = await refreshMe();
    const home = me ? onboardingPath(me.onboarding) : AFTER_SIGN_IN_PATH;
    const back = safeRedirect(redirect);
    if (home === "/" && back) await navigate({ href: back, replace: true });
    else await navigate({ to: home, replace: true });
  }, [navigate, queryClient, redirect, refreshMe]);
}

/** After an onboarding step: where the server says the user goes next. */
export function useContinueOnboarding(): () => Promise<void> {
  const refreshMe = useRefreshMe();
  const navigate = useNavigate();
  return useCallback(async () => {
    const me = await refreshMe();
    await navigate({ to: me ? onboardingPath(me.onboarding) : "/signin", replace: true });
  }, [navigate, refreshMe]);
}
