// Billing with Stripe (/api/v1/stripe): the plans, Checkout sessions (the 1 US dollar card check and
// the plan), the customer portal and the user's subscriptions as the server's database knows them
// (written by Stripe's signed webhooks). Its queries and mutations, defined once.
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { useApi } from "./ApiProvider";
import type { ApiClient } from "./client";
import { endpoints } from "./endpoints";
import { useApiMutation, type MutationCallbacks } from "./mutations";
import { queryKeys } from "./queryKeys";

export interface BillingPrice {
  id: string;
  /** Exact decimal in the currency's major unit ("20.00"). */
  amount: string;
  currency: string;
  interval: string;
}

export interface BillingProduct {
  id: string;
  name: string;
  description: string;
  /** The product's default monthly price (else the first); null: the plan has no monthly price
   * ("Price not available"). */
  price: BillingPrice | null;
  /** Every monthly price of the plan (`price` first), one per currency typically. */
  prices?: BillingPrice[];
}

/** The currency plans are shown in for the reader: the base currency of the workspace they work in
 * when this device holds it, else EUR for a Spanish reader and USD for an English one. */
export function readerCurrency(language: string, workspaceBase: string | undefined): string {
  if (workspaceBase && /^[A-Z]{3}$/.test(workspaceBase)) return workspaceBase;
  return language === "en" ? "USD" : "EUR";
}

/** The plan's monthly price in `currency` when it has one, else its default price (the first). */
export function priceFor(product: BillingProduct, currency: string): BillingPrice | null {
  return product.prices?.find((p) => p.currency === currency) ?? product.price;
}

export interface BillingSubscription {
  id: string;
  status: string;
  currency: string;
  created: string;
  productId: string;
  product: string;
  priceId: string;
  amount: string | null;
  interval: string;
  currentPeriodStart: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** When a cancellation is set (Stripe's cancel_at, a set date or the period's end): the moment it
   * ends. null: none set. */
  cancelAt: string | null;
  lastInvoice: "" | "paid" | "payment_failed";
}

export interface BillingState {
  /** false: billing is not configured on this server (every feature is open). */
  enabled: boolean;
  cardVerified: boolean;
  /** Every feature is open: billing off, or a subscription active or on trial. */
  entitled: boolean;
  hasCustomer: boolean;
  subscriptions: BillingSubscription[];
}

export interface CheckoutRequest {
  kind: "card_check" | "subscription";
  priceId?: string;
  /** Where Checkout comes back: the onboarding (default) or the billing page. */
  returnTo?: "onboarding" | "billing";
}

/** The statuses that open every feature. */
export const ENTITLED_STATUSES: readonly string[] = ["active", "trialing"];

/** The statuses of a subscription that still bills (or may) without being paid up: "Manage" (the
 * portal) sorts it out, or, for an incomplete one, abandoning it (useAbandonSubscriptionMutation); a
 * new plan would be charged alongside it, so the server refuses one. */
export const MANAGE_STATUSES: readonly string[] = ["past_due", "unpaid", "incomplete", "paused"];

/** Whether the user's subscription needs "Manage" rather than a new plan. */
export function needsManage(state: BillingState): boolean {
  return !state.entitled && state.subscriptions.some((s) => MANAGE_STATUSES.includes(s.status));
}

/** The plans with their monthly price, under the spec's key stripe/products. */
export function stripeProductsQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.stripeProducts, queryFn: () => endpoints.stripeProducts(api), staleTime: 60_000 });
}

export function billingStateQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.stripeSubscriptions, queryFn: () => endpoints.stripeSubscriptions(api) });
}

export function useStripeProducts() {
  return useQuery(stripeProductsQuery(useApi()));
}

/** The user's billing; `poll` (ms, or ms from what is known so far) asks again while a confirmation
 * from Stripe is awaited. */
export function useBillingState(poll?: number | false | ((known: BillingState | undefined) => number | false)) {
  return useQuery({ ...billingStateQuery(useApi()), refetchInterval: typeof poll === "function" ? (query) => poll(query.state.data) : (poll ?? false) });
}

/** A Checkout session; the screen sends the browser to its url. */
export function useCheckoutMutation(callbacks?: MutationCallbacks<{ id: string; url: string }, CheckoutRequest>) {
  const api = useApi();
  return useApiMutation({ mutationFn: (body: CheckoutRequest) => endpoints.createCheckoutSession(api, body) }, callbacks);
}

/** The customer portal (change the card, cancel); the screen sends the browser to its url. */
export function usePortalMutation(callbacks?: MutationCallbacks<{ url: string }, void>) {
  const api = useApi();
  return useApiMutation({ mutationFn: () => endpoints.createPortalSession(api) }, callbacks);
}

/** "Check again": the server asks Stripe and records what it says. The onboarding step may have
 * moved on with it, so /me is refreshed too. */
export function useRefreshBillingMutation(callbacks?: MutationCallbacks<BillingState, void>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: () => endpoints.refreshStripeSubscriptions(api),
      afterSuccess: async (state) => {
        queryClient.setQueryData(queryKeys.stripeSubscriptions, state);
        await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      },
    },
    callbacks,
  );
}

/** Abandons a subscription whose first payment did not go through (status incomplete): the server
 * cancels it at Stripe while it is still incomplete, so that a plan can be chosen again at once. */
export function useAbandonSubscriptionMutation(callbacks?: MutationCallbacks<BillingState, string>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: (id: string) => endpoints.abandonStripeSubscription(api, id),
      afterSuccess: async (state) => {
        queryClient.setQueryData(queryKeys.stripeSubscriptions, state);
        await queryClient.invalidateQueries({ queryKey: queryKeys.me });
      },
    },
    callbacks,
  );
}

/** Sends the browser to a Stripe page (Checkout, the portal). Kept in one place for tests. */
export function goToStripe(url: string): void {
  window.location.assign(url);
}
