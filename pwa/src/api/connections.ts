// Bank and broker connections (/api/v1/connections, issue 15): which providers the server has, the
// institutions of a country, a workspace's connections, and the mutations of the link flow (start,
// complete on the way back, choose accounts, refresh, renew). What a connection reads reaches the
// device as ordinary synced records (assets and valuations written by the server), so screens show
// balances from the device database; these calls only drive the link.
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  ConnectionAdoptRequest,
  ConnectionCompleteRequest,
  ConnectionProvider,
  ConnectionStartRequest,
} from "@patrimonio/shared-schema";
import { useApi } from "./ApiProvider";
import type { ApiClient } from "./client";
import { endpoints } from "./endpoints";
import { useApiMutation, type MutationCallbacks } from "./mutations";
import { queryKeys } from "./queryKeys";

export type { ConnectionAdoptRequest, ConnectionCompleteRequest, ConnectionProvider, ConnectionStartRequest };

export type ConnectionKind = "bank" | "brokerage";

export interface ProviderInfo {
  name: ConnectionProvider;
  kind: ConnectionKind;
  title: string;
  configured: boolean;
  readsPerDay?: number;
}

export interface ConnectionProviders {
  providers: ProviderInfo[];
  /** Where a statement can be imported instead (the device's statement import). */
  importPath: string;
}

export interface Institution {
  id: string;
  name: string;
  country?: string;
  logo?: string;
  maxConsentDays?: number;
}

/** A position of a brokerage account: an investment asset of its own (server/connect/positions.go). */
export interface ConnectionPosition {
  symbol: string;
  name: string;
  /** Decimal strings. */
  units: string;
  price: string;
  currency: string;
  value: string;
  /** The day of the last read (YYYY-MM-DD). */
  date: string;
  /** closed: sold (the broker no longer reports it); its asset stays at quantity and value zero. */
  status: "open" | "closed";
  assetId: string | null;
}

export interface ConnectionAccount {
  id: string;
  name: string;
  kind: ConnectionKind;
  institution: string;
  currency: string;
  /** IBAN or account number, masked ("ES91 •••• 1332"). */
  masked: string;
  assetId: string | null;
  lastBalance: string | null;
  lastBalanceDate: string | null;
  lastRefreshAt: string | null;
  readsLeftToday: number;
  /** The renewed consent no longer includes the account: it keeps its asset, which no longer updates. */
  detached: boolean;
  /** This account's own last read failure ("account_error"), absent after a good read. */
  lastError?: string;
  /** A brokerage account's positions (empty for bank accounts). */
  positions: ConnectionPosition[];
}

export interface Connection {
  id: string;
  workspaceId: string;
  provider: ConnectionProvider;
  kind: ConnectionKind;
  institution: Institution;
  status: "pending" | "active" | "expired";
  consentExpiresAt: string | null;
  /** The consent ends within 14 days: offer "renew". */
  renewSoon: boolean;
  /** The caller linked it: only they may renew it (a renewal reuses their identity at the provider). */
  linkedByMe: boolean;
  lastRefreshAt: string | null;
  lastError?: string;
  readsPerDay: number;
  accounts: ConnectionAccount[];
  createdAt: string;
}

export interface ConnectionStarted {
  connectionId: string;
  redirectUrl: string;
}

export interface ConnectionRefresh {
  refreshed: number;
  limited: number;
  /** Accounts whose own read failed (the error is on the account: lastError). */
  failed: number;
  connection: Connection;
}

export function connectionProvidersQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.connectionProviders, queryFn: () => endpoints.connectionProviders(api), staleTime: 5 * 60_000 });
}

export function useConnectionProviders() {
  return useQuery(connectionProvidersQuery(useApi()));
}

/** The institutions of a provider in a country; nothing is asked until both are chosen. */
export function useInstitutions(provider: ConnectionProvider | undefined, country: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.connectionInstitutions(provider ?? "", country ?? ""),
    queryFn: async () => (await endpoints.connectionInstitutions(api, provider ?? "", country ?? "")).institutions,
    enabled: provider !== undefined && country !== undefined && country !== "",
    staleTime: 10 * 60_000,
  });
}

/** The workspace's connections (every member reads them). */
export function useWorkspaceConnections(workspaceId: string | undefined) {
  const api = useApi();
  return useQuery({
    queryKey: queryKeys.workspaceConnections(workspaceId ?? ""),
    queryFn: async () => (await endpoints.workspaceConnections(api, workspaceId ?? "")).connections,
    enabled: workspaceId !== undefined,
  });
}

function useInvalidateConnections() {
  const queryClient = useQueryClient();
  return (workspaceId: string) => queryClient.invalidateQueries({ queryKey: queryKeys.workspaceConnections(workspaceId) });
}

/** Starts a link; the screen sends the browser to redirectUrl (goToInstitution). */
export function useStartConnectionMutation(callbacks?: MutationCallbacks<ConnectionStarted, ConnectionStartRequest>) {
  const api = useApi();
  return useApiMutation({ mutationFn: (body: ConnectionStartRequest) => endpoints.startConnection(api, body) }, callbacks);
}

/** Completes a link with what the institution sent back. */
export function useCompleteConnectionMutation(callbacks?: MutationCallbacks<Connection, ConnectionCompleteRequest>) {
  const api = useApi();
  const invalidate = useInvalidateConnections();
  return useApiMutation(
    { mutationFn: (body: ConnectionCompleteRequest) => endpoints.completeConnection(api, body), afterSuccess: (c) => invalidate(c.workspaceId) },
    callbacks,
  );
}

/** Makes the chosen accounts assets; the server writes them, and they arrive through sync. */
export function useAdoptAccountsMutation(callbacks?: MutationCallbacks<Connection, { id: string; body: ConnectionAdoptRequest }>) {
  const api = useApi();
  const invalidate = useInvalidateConnections();
  return useApiMutation(
    {
      mutationFn: ({ id, body }: { id: string; body: ConnectionAdoptRequest }) => endpoints.adoptConnectionAccounts(api, id, body),
      afterSuccess: (c) => invalidate(c.workspaceId),
    },
    callbacks,
  );
}

export function useRefreshConnectionMutation(callbacks?: MutationCallbacks<ConnectionRefresh, string>) {
  const api = useApi();
  const invalidate = useInvalidateConnections();
  return useApiMutation(
    { mutationFn: (id: string) => endpoints.refreshConnection(api, id), afterSuccess: (r) => invalidate(r.connection.workspaceId) },
    callbacks,
  );
}

export function useRenewConnectionMutation(callbacks?: MutationCallbacks<ConnectionStarted, { id: string; language: "es" | "en" }>) {
  const api = useApi();
  return useApiMutation(
    { mutationFn: ({ id, language }: { id: string; language: "es" | "en" }) => endpoints.renewConnection(api, id, language) },
    callbacks,
  );
}

/** Sends the browser to the institution's consent page. Kept in one place for tests. */
export function goToInstitution(url: string): void {
  window.location.assign(url);
}

