// The admin area (/api/v1/admin): its queries, defined once. (No admin mutation exists yet; they
// go here, beside these, with their invalidation of queryKeys.adminUsers.)
import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { useApi } from "./ApiProvider";
import type { ApiClient } from "./client";
import { endpoints } from "./endpoints";
import { queryKeys } from "./queryKeys";
import type { AdminUserQuery } from "./types";

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

export function useAdminUsers() {
  return useQuery(adminUsersQuery(useApi()));
}

export function useAdminUsersPage(query: AdminUserQuery) {
  return useQuery(adminUsersPageQuery(useApi(), query));
}
