// One function per /api/v1 call the PWA makes, typed with ./types. Screens use these through the
// query hooks (./queries.ts) or mutations; nothing else builds API paths.
import type { AdminUserActionRequest } from "@patrimonio/shared-schema";
import type { BillingProduct, BillingState, CheckoutRequest } from "./billing";
import type {
  Connection,
  ConnectionAdoptRequest,
  ConnectionCompleteRequest,
  ConnectionProviders,
  ConnectionRefresh,
  ConnectionStartRequest,
  ConnectionStarted,
  Institution,
} from "./connections";
import type { ApiClient } from "./client";
import { pageFromHeaders, type Page } from "./paging";
import type {
  AdminUser,
  AdminUserAuditEntry,
  AdminUserQuery,
  AuthConfig,
  EmailChange,
  Me,
  OnboardingState,
  Passkey,
  PersonalIdentityInput,
  ReverifyMethod,
  SignInResult,
  SignUpStarted,
  TotpSetup,
  User,
  Workspace,
  WorkspaceDetail,
  WorkspaceInvitation,
  WorkspaceMember,
  WorkspaceRole,
} from "./types";

export const endpoints = {
  // Billing with Stripe (api/billing.ts).
  stripeProducts: (api: ApiClient) => api.get<BillingProduct[]>("/stripe/products"),
  stripeSubscriptions: (api: ApiClient) => api.get<BillingState>("/stripe/subscriptions"),
  refreshStripeSubscriptions: (api: ApiClient) => api.post<BillingState>("/stripe/subscriptions/refresh"),
  abandonStripeSubscription: (api: ApiClient, id: string) => api.post<BillingState>(`/stripe/subscriptions/${encodeURIComponent(id)}/abandon`),
  createCheckoutSession: (api: ApiClient, body: CheckoutRequest) => api.post<{ id: string; url: string }>("/stripe/create-checkout-session", body),
  createPortalSession: (api: ApiClient) => api.post<{ url: string }>("/stripe/portal-session"),

  // Bank and broker connections (api/connections.ts).
  connectionProviders: (api: ApiClient) => api.get<ConnectionProviders>("/connections/providers"),
  connectionInstitutions: (api: ApiClient, provider: string, country: string) =>
    api.get<{ institutions: Institution[] }>(`/connections/institutions?provider=${encodeURIComponent(provider)}&country=${encodeURIComponent(country)}`),
  workspaceConnections: (api: ApiClient, workspaceId: string) =>
    api.get<{ connections: Connection[] }>(`/workspaces/${encodeURIComponent(workspaceId)}/connections`),
  startConnection: (api: ApiClient, body: ConnectionStartRequest) => api.post<ConnectionStarted>("/connections", body),
  completeConnection: (api: ApiClient, body: ConnectionCompleteRequest) => api.post<Connection>("/connections/complete", body),
  renewConnection: (api: ApiClient, id: string, language: "es" | "en") =>
    api.post<ConnectionStarted>(`/connections/${encodeURIComponent(id)}/renew`, { language }),
  adoptConnectionAccounts: (api: ApiClient, id: string, body: ConnectionAdoptRequest) =>
    api.post<Connection>(`/connections/${encodeURIComponent(id)}/assets`, body),
  refreshConnection: (api: ApiClient, id: string) => api.post<ConnectionRefresh>(`/connections/${encodeURIComponent(id)}/refresh`),

  authConfig: (api: ApiClient) => api.get<AuthConfig>("/auth/config"),
  /** The signed-in user, or null when nobody is (the server answers 204). */
  me: async (api: ApiClient): Promise<Me | null> => (await api.get<Me | undefined>("/me")) ?? null,

  /** Answers the same for a new and a taken address (no session): the code is e-mailed to a new one. */
  signUp: (api: ApiClient, body: { email: string; password: string }) => api.post<SignUpStarted>("/auth/signup", body),
  /** Confirms a sign-up with its e-mailed code and signs in (session cookie). */
  signUpVerify: (api: ApiClient, body: { email: string; code: string }) =>
    api.post<{ user: User; onboarding: OnboardingState }>("/auth/signup/verify", body),
  signUpResend: (api: ApiClient, body: { email: string }) => api.post<SignUpStarted>("/auth/signup/resend", body),
  verifyEmail: (api: ApiClient, code: string) => api.post<unknown>("/auth/email/verify", { code }),
  resendEmailCode: (api: ApiClient) => api.post<unknown>("/auth/email/resend"),
  signIn: (api: ApiClient, body: { email: string; password: string }) => api.post<SignInResult>("/auth/signin", body),
  signInSecondFactor: (api: ApiClient, body: { code: string } | { recoveryCode: string }) =>
    api.post<unknown>("/auth/signin/totp", body),
  signOut: (api: ApiClient) => api.post<void>("/auth/signout", undefined, { reverify: false }),

  advanceOnboarding: (api: ApiClient, step: string, action: "complete" | "skip") =>
    api.post<{ onboarding: OnboardingState }>("/onboarding/advance", { step, action }),
  updatePersonalIdentity: (api: ApiClient, body: PersonalIdentityInput) => api.patch<{ user: User }>("/users/", body),
  /** Sends a code to the new address (needs a recent proof); nothing changes until it is confirmed. */
  requestEmailChange: (api: ApiClient, email: string) => api.post<EmailChange>("/users/email", { email }),
  confirmEmailChange: (api: ApiClient, code: string) => api.post<{ user: User }>("/users/email/verify", { code }),
  /** Deletes the account for good (needs a recent proof); the answer clears the site's data. */
  deleteAccount: (api: ApiClient) => api.delete<void>("/users/"),

  totpSetup: (api: ApiClient) => api.post<TotpSetup>("/auth/totp/setup"),
  totpEnable: (api: ApiClient, code: string) => api.post<{ recoveryCodes: string[] }>("/auth/totp/enable", { code }),
  totpDisable: (api: ApiClient) => api.delete<void>("/auth/totp"),

  reverify: (api: ApiClient, body: { method: ReverifyMethod; password?: string; code?: string }) =>
    api.post<{ reverifiedUntil: string }>("/auth/reverify", body, { reverify: false }),
  sendReverifyEmail: (api: ApiClient) => api.post<unknown>("/auth/reverify/email", undefined, { reverify: false }),

  passkeyRegisterBegin: (api: ApiClient) => api.post<unknown>("/auth/passkeys/register/begin"),
  passkeyRegisterFinish: (api: ApiClient, credential: unknown, name?: string) =>
    api.post<{ passkey: Passkey }>("/auth/passkeys/register/finish", name ? { credential, name } : { credential }),
  passkeyLoginBegin: (api: ApiClient) => api.post<unknown>("/auth/passkeys/login/begin"),
  passkeyLoginFinish: (api: ApiClient, credential: unknown) => api.post<{ user: User }>("/auth/passkeys/login/finish", { credential }),
  passkeys: (api: ApiClient) => api.get<Passkey[]>("/auth/passkeys"),
  removePasskey: (api: ApiClient, id: string) => api.delete<void>(`/auth/passkeys/${encodeURIComponent(id)}`),

  workspaces: (api: ApiClient) => api.get<Workspace[]>("/workspaces"),
  /** Creates a team workspace; the caller becomes its owner. */
  createWorkspace: (api: ApiClient, name: string) => api.post<{ workspace: Workspace }>("/workspaces", { name }),
  workspace: (api: ApiClient, id: string) => api.get<WorkspaceDetail>(`/workspaces/${encodeURIComponent(id)}`),
  renameWorkspace: (api: ApiClient, id: string, name: string) =>
    api.patch<{ workspace: Workspace }>(`/workspaces/${encodeURIComponent(id)}`, { name }),
  /** Deletes a team workspace with everything in it (owners; needs a recent proof). */
  deleteWorkspace: (api: ApiClient, id: string) => api.delete<void>(`/workspaces/${encodeURIComponent(id)}`),
  inviteToWorkspace: (api: ApiClient, id: string, body: { email: string; role: WorkspaceRole }) =>
    api.post<{ invitation: WorkspaceInvitation }>(`/workspaces/${encodeURIComponent(id)}/invitations`, body),
  revokeInvitation: (api: ApiClient, id: string, invitationId: string) =>
    api.delete<void>(`/workspaces/${encodeURIComponent(id)}/invitations/${encodeURIComponent(invitationId)}`),
  changeMemberRole: (api: ApiClient, id: string, userId: string, role: WorkspaceRole) =>
    api.patch<{ member: WorkspaceMember }>(`/workspaces/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`, { role }),
  /** Removes a member; with one's own user id, leaves the workspace. */
  removeMember: (api: ApiClient, id: string, userId: string) =>
    api.delete<void>(`/workspaces/${encodeURIComponent(id)}/members/${encodeURIComponent(userId)}`),
  /** The pending invitations addressed to my verified e-mail address. */
  myInvitations: (api: ApiClient) => api.get<WorkspaceInvitation[]>("/invitations"),
  acceptInvitation: (api: ApiClient, invitationId: string) =>
    api.post<{ workspace: Workspace }>(`/invitations/${encodeURIComponent(invitationId)}/accept`),
  declineInvitation: (api: ApiClient, invitationId: string) =>
    api.post<void>(`/invitations/${encodeURIComponent(invitationId)}/decline`),
  adminUsers: (api: ApiClient) => api.get<AdminUser[]>("/admin/users"),
  /** A page of users, newest first; its place in the whole list comes from the answer's headers. */
  adminUsersPage: async (api: ApiClient, query: AdminUserQuery, signal?: AbortSignal): Promise<Page<AdminUser>> => {
    const params = new URLSearchParams();
    if (query.search !== "") params.set("search", query.search);
    params.set("limit", String(query.limit));
    params.set("offset", String(query.offset));
    const answer = await api.exchange<AdminUser[]>("GET", `/admin/users?${params.toString()}`, signal ? { signal } : {});
    return pageFromHeaders(answer.data, answer.headers, { offset: query.offset, limit: query.limit });
  },
  /** Disables or enables a user, grants or revokes admin (the last two may ask for re-verification). */
  adminUserAction: (api: ApiClient, id: string, body: AdminUserActionRequest) =>
    api.post<AdminUser>(`/admin/users/${encodeURIComponent(id)}/action`, body),
  /** The latest changes admins made to users, newest first. */
  adminUserAudit: (api: ApiClient, limit: number) => api.get<AdminUserAuditEntry[]>(`/admin/users/audit?limit=${limit}`),
};
