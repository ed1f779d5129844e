// One function per /api/v1 call the PWA makes, typed with ./types. Screens use these through the
// query hooks (./queries.ts) or mutations; nothing else builds API paths.
import type { ApiClient } from "./client";
import type {
  AdminUser,
  AuthConfig,
  Me,
  OnboardingState,
  Passkey,
  PersonalIdentityInput,
  ReverifyMethod,
  SignInResult,
  TotpSetup,
  User,
  Workspace,
} from "./types";

export const endpoints = {
  authConfig: (api: ApiClient) => api.get<AuthConfig>("/auth/config"),
  me: (api: ApiClient) => api.get<Me>("/me"),

  signUp: (api: ApiClient, body: { email: string; password: string }) => api.post<{ user: User }>("/auth/signup", body),
  verifyEmail: (api: ApiClient, code: string) => api.post<unknown>("/auth/email/verify", { code }),
  resendEmailCode: (api: ApiClient) => api.post<unknown>("/auth/email/resend"),
  signIn: (api: ApiClient, body: { email: string; password: string }) => api.post<SignInResult>("/auth/signin", body),
  signInSecondFactor: (api: ApiClient, body: { code: string } | { recoveryCode: string }) =>
    api.post<unknown>("/auth/signin/totp", body),
  signOut: (api: ApiClient) => api.post<void>("/auth/signout", undefined, { reverify: false }),

  advanceOnboarding: (api: ApiClient, step: string, action: "complete" | "skip") =>
    api.post<{ onboarding: OnboardingState }>("/onboarding/advance", { step, action }),
  updatePersonalIdentity: (api: ApiClient, body: PersonalIdentityInput) => api.patch<{ user: User }>("/users/", body),

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
  adminUsers: (api: ApiClient) => api.get<AdminUser[]>("/admin/users"),
};
