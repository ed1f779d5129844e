// Workspaces, memberships and invitations (/api/v1/workspaces, /api/v1/invitations): the query
// options and every mutation, with the cache each one refreshes declared here once.
import { queryOptions, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { InvitationRequest, WorkspaceNameRequest } from "@patrimonio/shared-schema";
import { QUERY_RETRY_COUNT } from "../query/queryClient";
import { useApi } from "./ApiProvider";
import { ERROR_CODES, isApiError, type ApiClient } from "./client";
import { endpoints } from "./endpoints";
import { useApiMutation, type MutationCallbacks } from "./mutations";
import { queryKeys } from "./queryKeys";
import type { Workspace, WorkspaceDetail, WorkspaceInvitation, WorkspaceMember, WorkspaceRole } from "./types";

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

export function useWorkspaces(enabled = true) {
  return useQuery({ ...workspacesQuery(useApi()), enabled });
}

export function useWorkspace(id: string) {
  return useQuery(workspaceQuery(useApi(), id));
}

export function useMyInvitations(enabled = true) {
  return useQuery({ ...myInvitationsQuery(useApi()), enabled });
}

/**
 * After a change to workspaces or memberships: the lists (and every workspace's detail, under the
 * same key), /me (its workspaces decide what the device syncs) and my invitations are asked again.
 */
export async function invalidateWorkspaces(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.workspaces }),
    queryClient.invalidateQueries({ queryKey: queryKeys.me }),
    queryClient.invalidateQueries({ queryKey: queryKeys.invitations }),
  ]);
}

/** Creates a team workspace (the caller becomes its owner). */
export function useCreateWorkspaceMutation(callbacks?: MutationCallbacks<{ workspace: Workspace }, WorkspaceNameRequest>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: (body: WorkspaceNameRequest) => endpoints.createWorkspace(api, body.name),
      // Refreshed in the background: the screen opens the new workspace at once.
      afterSuccess: () => void invalidateWorkspaces(queryClient),
    },
    callbacks,
  );
}

export function useRenameWorkspaceMutation(workspaceId: string, callbacks?: MutationCallbacks<{ workspace: Workspace }, WorkspaceNameRequest>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: (body: WorkspaceNameRequest) => endpoints.renameWorkspace(api, workspaceId, body.name),
      afterSuccess: async ({ workspace: renamed }) => {
        queryClient.setQueryData<WorkspaceDetail>(queryKeys.workspace(workspaceId), (old) =>
          old ? { ...old, workspace: { ...old.workspace, name: renamed.name } } : old,
        );
        await invalidateWorkspaces(queryClient);
      },
    },
    callbacks,
  );
}

/** Deletes a team workspace with everything in it (owners; the server asks for a recent proof). */
export function useDeleteWorkspaceMutation(workspaceId: string, callbacks?: MutationCallbacks<void, void>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: () => endpoints.deleteWorkspace(api, workspaceId),
      afterSuccess: () => {
        queryClient.removeQueries({ queryKey: queryKeys.workspace(workspaceId), exact: true });
        // Refreshed in the background: the screen leaves the deleted workspace at once.
        void invalidateWorkspaces(queryClient);
      },
    },
    callbacks,
  );
}

export function useInviteMutation(workspaceId: string, callbacks?: MutationCallbacks<{ invitation: WorkspaceInvitation }, InvitationRequest>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: (body: InvitationRequest) => endpoints.inviteToWorkspace(api, workspaceId, body),
      afterSuccess: () => invalidateWorkspaces(queryClient),
    },
    callbacks,
  );
}

export function useRevokeInvitationMutation(workspaceId: string, callbacks?: MutationCallbacks<void, WorkspaceInvitation>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: (invitation: WorkspaceInvitation) => endpoints.revokeInvitation(api, workspaceId, invitation.id),
      afterSuccess: () => invalidateWorkspaces(queryClient),
      // Withdrawn or answered elsewhere: the list says so once asked again.
      afterError: () => invalidateWorkspaces(queryClient),
    },
    callbacks,
  );
}

export function useChangeMemberRoleMutation(
  workspaceId: string,
  callbacks?: MutationCallbacks<{ member: WorkspaceMember }, { member: WorkspaceMember; role: WorkspaceRole }>,
) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: ({ member, role }: { member: WorkspaceMember; role: WorkspaceRole }) =>
        endpoints.changeMemberRole(api, workspaceId, member.userId, role),
      afterSuccess: async ({ member }) => {
        queryClient.setQueryData<WorkspaceDetail>(queryKeys.workspace(workspaceId), (old) =>
          // The actions stay until the detail is asked again (below): they depend on every role.
          old ? { ...old, members: old.members.map((m) => (m.userId === member.userId ? { ...m, ...member } : m)) } : old,
        );
        await invalidateWorkspaces(queryClient);
      },
      // The select shows the role the server keeps.
      afterError: () => invalidateWorkspaces(queryClient),
    },
    callbacks,
  );
}

/** Removes a member; with one's own user id, leaves the workspace (its detail is dropped). */
export function useRemoveMemberMutation(workspaceId: string, myUserId: string, callbacks?: MutationCallbacks<void, WorkspaceMember>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: (member: WorkspaceMember) => endpoints.removeMember(api, workspaceId, member.userId),
      afterSuccess: async (_nothing, member) => {
        if (member.userId === myUserId) {
          queryClient.removeQueries({ queryKey: queryKeys.workspace(workspaceId), exact: true });
          void invalidateWorkspaces(queryClient);
          return;
        }
        await invalidateWorkspaces(queryClient);
      },
      afterError: () => invalidateWorkspaces(queryClient),
    },
    callbacks,
  );
}

export function useAcceptInvitationMutation(invitationId: string, callbacks?: MutationCallbacks<{ workspace: Workspace }, void>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: () => endpoints.acceptInvitation(api, invitationId),
      afterSuccess: () => invalidateWorkspaces(queryClient),
      // Withdrawn, expired or answered elsewhere: the list says so once asked again.
      afterError: () => invalidateWorkspaces(queryClient),
    },
    callbacks,
  );
}

export function useDeclineInvitationMutation(invitationId: string, callbacks?: MutationCallbacks<void, void>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: () => endpoints.declineInvitation(api, invitationId),
      afterSuccess: () => invalidateWorkspaces(queryClient),
      afterError: () => invalidateWorkspaces(queryClient),
    },
    callbacks,
  );
}
