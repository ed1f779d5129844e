// Every TanStack Query key of the server's data, in one place (invalidations name them).
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
  /** The plans (spec: cached under the key stripe/products). */
  stripeProducts: ["stripe/products"] as const,
  /** The user's billing: card check and subscriptions, as the server's database knows them. */
  stripeSubscriptions: ["stripe/subscriptions"] as const,
  /** Bank and broker connections (issue 15): the providers, institutions, a workspace's connections. */
  connectionProviders: ["connections", "providers"] as const,
  connectionInstitutions: (provider: string, country: string) => ["connections", "institutions", provider, country] as const,
  workspaceConnections: (workspaceId: string) => ["connections", "workspace", workspaceId] as const,
};
