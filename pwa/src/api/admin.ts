// The admin area's users (/api/v1/admin/users): its queries and mutations, defined once. A change
// to a user refreshes every page of the list (queryKeys.adminUsers).
import type { AdminUserActionRequest } from "@patrimonio/shared-schema";
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "./ApiProvider";
import type { ApiClient } from "./client";
import { endpoints } from "./endpoints";
import { useApiMutation, type MutationCallbacks } from "./mutations";
import { queryKeys } from "./queryKeys";
import type { AdminUser, AdminUserQuery } from "./types";

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

/** The latest changes admins made to users (the audit log), refreshed with the list. */
export function useAdminUserAudit(limit = 10) {
  const api = useApi();
  return useQuery({ queryKey: [...queryKeys.adminUsers, "audit", limit] as const, queryFn: () => endpoints.adminUserAudit(api, limit), retry: false });
}

export interface AdminUserActionVariables extends AdminUserActionRequest {
  userId: string;
}

/** Disables or enables a user, or grants or revokes admin. Granting and revoking need a recent
 * proof of identity: the API client opens the re-verification dialog and sends the call again. */
export function useAdminUserActionMutation(callbacks?: MutationCallbacks<AdminUser, AdminUserActionVariables>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: ({ userId, action }: AdminUserActionVariables) => endpoints.adminUserAction(api, userId, { action }),
      afterSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers }),
      // Another admin may have changed the user meanwhile (409, 404): show the list as it is.
      afterError: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers }),
    },
    callbacks,
  );
}
