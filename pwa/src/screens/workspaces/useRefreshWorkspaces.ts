import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { queryKeys } from "../../api/queries";

/**
 * After a change to workspaces or memberships: the lists (and every workspace's detail, under the
 * same key), /me (its workspaces decide what the device syncs) and my invitations are asked again.
 */
export function useRefreshWorkspaces(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.workspaces }),
      queryClient.invalidateQueries({ queryKey: queryKeys.me }),
      queryClient.invalidateQueries({ queryKey: queryKeys.invitations }),
    ]);
  }, [queryClient]);
}
