// TanStack Query options and hooks for the server's data, defined once: route guards call
// queryClient.ensureQueryData(meQuery(api)), screens call the hooks.
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { loadMe } from "../auth/session";
import { QUERY_RETRY_COUNT } from "../query/queryClient";
import { useApi } from "./ApiProvider";
import { ERROR_CODES, isApiError, type ApiClient } from "./client";
import { endpoints } from "./endpoints";
import type { AdminUserQuery } from "./types";

export const queryKeys = {
  me: ["me"] as const,
  authConfig: ["auth", "config"] as const,
  workspaces: ["workspaces"] as const,
  /** One workspace with its members; under workspaces, so invalidating those refreshes it too. */
  workspace: (id: string) => ["workspaces", id] as const,
  /** The pending invitations addressed to me. */
  invitations: ["invitations"] as const,
  passkeys: ["passkeys"] as const,
  adminUsers: ["admin", "users"] as const,
  totpSetup: ["auth", "totp", "setup"] as const,
};

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

export function workspacesQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.workspaces, queryFn: () => endpoints.workspaces(api), staleTime: 30_000 });
}

export function workspaceQuery(api: ApiClient, id: string) {
  return queryOptions({
    queryKey: queryKeys.workspace(id),
    queryFn: () => endpoints.workspace(api, id),
    // A workspace one is not (or no longer) a member of answers 404 at once: nothing to retry.
    retry: (failures, error) => !isApiError(error, ERROR_CODES.notFound) && failures < QUERY_RETRY_COUNT,
  });
}

export function myInvitationsQuery(api: ApiClient) {
  // The top bar shows them on every screen: asked again when the window regains focus, and every minute.
  return queryOptions({
    queryKey: queryKeys.invitations,
    queryFn: () => endpoints.myInvitations(api),
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
}

export function passkeysQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.passkeys, queryFn: () => endpoints.passkeys(api) });
}

export function adminUsersQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.adminUsers, queryFn: () => endpoints.adminUsers(api), retry: false });
}

/** One page of the admin user list; under queryKeys.adminUsers, so invalidating that refreshes it. */
export function adminUsersPageQuery(api: ApiClient, query: AdminUserQuery) {
  return queryOptions({
    queryKey: [...queryKeys.adminUsers, query] as const,
    queryFn: ({ signal }) => endpoints.adminUsersPage(api, query, signal),
    retry: false,
    // While the next page or search loads, the current one stays on screen.
    placeholderData: keepPreviousData,
  });
}

export function useMe() {
  return useQuery(meQuery(useApi()));
}

export function useAuthConfig() {
  return useQuery(authConfigQuery(useApi()));
}

export function useWorkspaces(enabled = true) {
  return useQuery({ ...workspacesQuery(useApi()), enabled });
}

export function useWorkspace(id: string) {
  return useQuery(workspaceQuery(useApi(), id));
}

export function useMyInvitations(enabled = true) {
  return useQuery({ ...myInvitationsQuery(useApi()), enabled });
}

export function usePasskeys() {
  return useQuery(passkeysQuery(useApi()));
}

export function useAdminUsers() {
  return useQuery(adminUsersQuery(useApi()));
}

export function useAdminUsersPage(query: AdminUserQuery) {
  return useQuery(adminUsersPageQuery(useApi(), query));
}
