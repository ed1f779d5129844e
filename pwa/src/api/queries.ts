// TanStack Query options and hooks for the server's data, defined once: route guards call
// queryClient.ensureQueryData(meQuery(api)), screens call the hooks.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { loadMe } from "../auth/session";
import { useApi } from "./ApiProvider";
import type { ApiClient } from "./client";
import { endpoints } from "./endpoints";

export const queryKeys = {
  me: ["me"] as const,
  authConfig: ["auth", "config"] as const,
  workspaces: ["workspaces"] as const,
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

export function passkeysQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.passkeys, queryFn: () => endpoints.passkeys(api) });
}

export function adminUsersQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.adminUsers, queryFn: () => endpoints.adminUsers(api), retry: false });
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

export function usePasskeys() {
  return useQuery(passkeysQuery(useApi()));
}

export function useAdminUsers() {
  return useQuery(adminUsersQuery(useApi()));
}
