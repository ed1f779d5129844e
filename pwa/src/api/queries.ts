// TanStack Query options and hooks of the signed-in user and the app's configuration (/me, /auth/config,
// passkeys), defined once: route guards call queryClient.ensureQueryData(meQuery(api)), screens call
// the hooks. Each area has its own module beside this one, with its queries AND its mutations:
// auth.ts (sign-up, sign-in, codes, onboarding), workspaces.ts, admin.ts. Those of workspaces and
// admin are re-exported here for older imports.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { loadMe } from "../auth/session";
import { useApi } from "./ApiProvider";
import type { ApiClient } from "./client";
import { endpoints } from "./endpoints";
import { queryKeys } from "./queryKeys";

export { queryKeys } from "./queryKeys";

export function meQuery(api: ApiClient) {
  return queryOptions({
    queryKey: queryKeys.me,
    queryFn: () => loadMe(api),
    // Guards read it on every navigation; mutations that change it refetch it explicitly.
    staleTime: 30_000,
    // loadMe already answers offline from the device copy; retrying would only delay the guard.
    retry: false,
    // Run even while the browser says it is offline (TanStack would pause the query, and the
    // guards with it): offline is exactly when the device copy must answer.
    networkMode: "always",
  });
}

export function authConfigQuery(api: ApiClient) {
  return queryOptions({
    queryKey: queryKeys.authConfig,
    queryFn: () => endpoints.authConfig(api),
    staleTime: Infinity,
  });
}

export function passkeysQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.passkeys, queryFn: () => endpoints.passkeys(api) });
}

export function useMe() {
  return useQuery(meQuery(useApi()));
}

export function useAuthConfig() {
  return useQuery(authConfigQuery(useApi()));
}

export function usePasskeys() {
  return useQuery(passkeysQuery(useApi()));
}

export { myInvitationsQuery, useMyInvitations, useWorkspace, useWorkspaces, workspaceQuery, workspacesQuery } from "./workspaces";
export { adminUsersPageQuery, adminUsersQuery, useAdminUsers, useAdminUsersPage } from "./admin";
