// The shapes of the server's answers under /api/v1 (see server/httpapi/*_handlers.go and the OpenAPI
// document at /api/v1/openapi.json). Only what the PWA reads is typed.

export type AuthProvider = "local" | "clerk";

export interface AuthConfig {
  provider: AuthProvider;
  clerkPublishableKey?: string;
  passkeys: boolean;
  emailDelivery: "smtp" | "log";
}

/** Onboarding steps, in order. "billing" exists only when billing is on (a later issue). */
export const ONBOARDING_STEPS = [
  "verify_email",
  "security_totp",
  "security_passkey",
  "personal_info",
  "billing",
  "done",
] as const;
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number];

export interface OnboardingState {
  /** One of ONBOARDING_STEPS; a newer server may send a step this client does not know. */
  step: string;
  completed: boolean;
}

export interface User {
  id: string;
  email: string;
  emailVerified: boolean;
  isAdmin: boolean;
  firstName: string | null;
  lastName: string | null;
  /** YYYY-MM-DD */
  birthday: string | null;
  gender: string | null;
  /** ISO 3166-1 alpha-2 */
  country: string | null;
  state: string | null;
  totpEnabled: boolean;
  hasPassword: boolean;
  /** 3 to 20 characters, null until chosen (issue 11). */
  username?: string | null;
  /** Whether GET /api/v1/users/avatar has a profile image (issue 11). */
  hasAvatar?: boolean;
}

export type WorkspaceKind = "personal" | "team";
export type WorkspaceRole = "owner" | "editor" | "viewer";

export interface Workspace {
  id: string;
  name: string;
  kind: WorkspaceKind;
  role: WorkspaceRole;
}

/** A member of a workspace (GET /workspaces/{id}). */
export interface WorkspaceMember {
  userId: string;
  email: string;
  /** "" when the member has not given it. */
  firstName: string;
  lastName: string;
  role: WorkspaceRole;
  /** ISO 8601 */
  joinedAt: string;
}

/** An invitation to a team workspace: a workspace's pending ones, or those addressed to me. */
export interface WorkspaceInvitation {
  id: string;
  workspaceId: string;
  workspaceName: string;
  email: string;
  role: WorkspaceRole;
  /** null when the inviter's account is gone. */
  invitedByEmail: string | null;
  /** ISO 8601 */
  createdAt: string;
  expiresAt: string;
  expired: boolean;
}

/** What the caller may do to a workspace as a whole: the server's rules, answered. */
export interface WorkspaceActions {
  rename: boolean;
  delete: boolean;
  leave: boolean;
  seeInvitations: boolean;
  /** The roles the caller may invite with, most powerful first; empty: no inviting. */
  inviteRoles: WorkspaceRole[];
  writeRecords: boolean;
}

/** A member, with what the caller may do to them. */
export interface OfferedMember extends WorkspaceMember {
  actions: {
    remove: boolean;
    /** The other roles the caller may give this member. */
    roles: WorkspaceRole[];
    /** The member is the caller, who may leave. */
    leave: boolean;
  };
}

/** A pending invitation, with whether the caller may withdraw it. */
export interface OfferedInvitation extends WorkspaceInvitation {
  actions: { withdraw: boolean };
}

/**
 * GET /workspaces/{id}: invitations only for members who may invite (owners and editors). Each part
 * carries what the caller may do to it, decided by the server: the screens show what they are told
 * and keep no copy of the rules.
 */
export interface WorkspaceDetail {
  workspace: Workspace;
  actions: WorkspaceActions;
  members: OfferedMember[];
  invitations?: OfferedInvitation[];
}

/** GET /me */
export interface Me {
  user: User;
  workspaces: Workspace[];
  onboarding: OnboardingState;
  /** Until when the last proof of identity counts (ISO 8601), or null. */
  reverifiedUntil: string | null;
  provider: AuthProvider;
}

export interface SignInResult {
  user: User;
  mfaRequired: boolean;
}

export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
  /** data:image/png;base64,… */
  qrPng: string;
}

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export interface AdminUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  isAdmin: boolean;
  /** Admin by the server's configuration (PATRIMONIO_ADMIN_EMAILS): cannot be revoked in the app. */
  adminByConfig: boolean;
  createdAt: string;
  emailVerified: boolean;
  /** Disabled by an admin: cannot sign in. */
  disabled: boolean;
  disabledAt: string | null;
  /** The last completed sign-in; null when none was recorded. */
  lastSignInAt: string | null;
  /** The stored status of the subscription (active, trialing, past_due, canceled, …); null: none. */
  subscriptionStatus: string | null;
}

/** The personal identity as PATCH /users/ takes it (the spec's field names). */
export interface PersonalIdentityInput {
  first_name: string;
  last_name: string;
  birthday: string;
  gender: string;
  country: string;
  state: string;
}

export type ReverifyMethod = "password" | "totp" | "email";

/** POST /users/email: the change of address waiting for the code sent to the new address. */
export interface EmailChange {
  /** The new address, as the server keeps it (lower case). */
  pendingEmail: string;
  /** When the code stops working (ISO 8601). */
  expiresAt: string;
}

/** GET /admin/users?search=&limit=&offset= */
/** One change an admin made to a user (GET /admin/users/audit), newest first. */
export interface AdminUserAuditEntry {
  id: string;
  /** null once the account was deleted. */
  userId: string | null;
  userEmail: string;
  action: "disable" | "enable" | "grant_admin" | "revoke_admin";
  actorId: string | null;
  actorEmail: string;
  at: string;
  before: { disabled: boolean; isAdmin: boolean };
  after: { disabled: boolean; isAdmin: boolean };
}

export interface AdminUserQuery {
  /** Keeps users whose e-mail address contains it (case-insensitive); "" keeps all. */
  search: string;
  offset: number;
  limit: number;
}

/** The answer to a sign-up (and to a resend of its code): the same for a new and a taken address. */
export interface SignUpStarted {
  email: string;
  /** Seconds before another code may be asked for. */
  resendAfterSeconds: number;
}
