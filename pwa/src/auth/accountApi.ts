// The account-security calls of issue 11 (sessions, password change and reset, passkey renaming,
// re-verification with a passkey), beside the hooks that use them.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "../api/ApiProvider";
import type { ApiClient } from "../api/client";
import { queryKeys } from "../api/queries";
import type { Passkey } from "../api/types";

/** A signed-in device, as GET /auth/sessions lists it. */
export interface SessionInfo {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string;
  ip: string;
}

export const accountApi = {
  sessions: (api: ApiClient) => api.get<SessionInfo[]>("/auth/sessions"),
  endSession: (api: ApiClient, id: string) => api.delete<void>(`/auth/sessions/${encodeURIComponent(id)}`),
  signOutOthers: (api: ApiClient) => api.post<{ ended: number }>("/auth/sessions/signout-others"),
  changePassword: (api: ApiClient, body: { currentPassword: string; newPassword: string }) => api.post<void>("/auth/password", body),
  forgotPassword: (api: ApiClient, email: string) => api.post<Record<string, never>>("/auth/password/forgot", { email }),
  resetPassword: (api: ApiClient, body: { token?: string; email?: string; code?: string; password: string }) =>
    api.post<void>("/auth/password/reset", body),
  renamePasskey: (api: ApiClient, id: string, name: string) =>
    api.patch<{ passkey: Passkey }>(`/auth/passkeys/${encodeURIComponent(id)}`, { name }),
  reverifyPasskeyBegin: (api: ApiClient) => api.post<unknown>("/auth/reverify/passkey/begin", undefined, { reverify: false }),
  reverifyPasskeyFinish: (api: ApiClient, credential: unknown) =>
    api.post<{ reverifiedUntil: string }>("/auth/reverify/passkey/finish", { credential }, { reverify: false }),
};

export const sessionsKey = ["auth", "sessions"] as const;

export function useSessions() {
  const api = useApi();
  return useQuery({ queryKey: sessionsKey, queryFn: () => accountApi.sessions(api) });
}

export function useEndSession() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => accountApi.endSession(api, id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useSignOutOthers() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => accountApi.signOutOthers(api),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

export function useRenamePasskey() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => accountApi.renamePasskey(api, id, name),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.passkeys }),
  });
}
