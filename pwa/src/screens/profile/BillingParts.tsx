// What the billing screens share: a subscription's data in words (the spec's fields and status
// labels: past_due reads "expired", trialing "on trial", any other status as it is), the plan list
// with monthly prices formatted for the reader ("Price not available" for a plan without one), and
// the Checkout call that sends the browser to Stripe.
import { CreditCard } from "lucide-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  goToStripe,
  priceFor,
  readerCurrency,
  useAbandonSubscriptionMutation,
  useCheckoutMutation,
  type BillingProduct,
  type BillingSubscription,
  type CheckoutRequest,
} from "../../api/billing";
import { queryKeys } from "../../api/queryKeys";
import { workspacesQuery } from "../../api/workspaces";
import { useApi } from "../../api/ApiProvider";
import { useErrorText } from "../../api/useErrorText";
import { useFormatters } from "../../i18n/useFormatters";
import { useLanguage } from "../../i18n/useLanguage";
import { useOnline } from "../../shell/NeedsConnection";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Badge, type BadgeTone } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { useActiveWorkspace } from "../../workspace/activeWorkspace";
import { readHeld } from "../dashboard/baseCurrency";
import styles from "./Billing.module.css";

const LABELED = ["active", "canceled", "past_due", "trialing"] as const;
/** Statuses of a subscription that is over: it bills no more. */
const ENDED_STATUSES: readonly string[] = ["canceled", "incomplete_expired"];
type LabeledStatus = (typeof LABELED)[number];

function isLabeled(status: string): status is LabeledStatus {
  return (LABELED as readonly string[]).includes(status);
}

/** The subscription status in words (spec §4); an unknown status is shown as it is. */
export function useStatusLabel(): (status: string) => string {
  const { t } = useTranslation();
  return (status) => (isLabeled(status) ? t(`billing.statusLabel.${status}`) : status);
}

function statusTone(status: string): BadgeTone {
  if (status === "active") return "success";
  if (status === "trialing") return "accent";
  if (status === "past_due" || status === "unpaid") return "warning";
  return "neutral";
}

/** The monthly price in the reader's format ("20,00 US$ / mes"), or null when there is none. */
export function usePriceText(): (amount: string | null | undefined, currency: string) => string | null {
  const { t } = useTranslation();
  const format = useFormatters();
  return (amount, currency) => {
    if (!amount || !/^[A-Z]{3}$/.test(currency)) return null;
    return t("billing.plans.perMonth", { price: format.money(amount, currency) });
  };
}

/** One subscription: id, status, currency, created, product, price, current period start and end.
 * An incomplete one (its first payment did not go through) offers to abandon it and choose again;
 * `onAbandoned` runs once it is. */
export function SubscriptionDetails({ subscription, onAbandoned }: { subscription: BillingSubscription; onAbandoned?: () => void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const statusLabel = useStatusLabel();
  const priceText = usePriceText();
  const date = (value: string | null) => (value ? format.date(value) : t("billing.fields.unknown"));
  const rows: [string, React.ReactNode][] = [
    [t("billing.fields.id"), <code key="id">{subscription.id}</code>],
    [t("billing.fields.status"), <Badge key="status" tone={statusTone(subscription.status)}>{statusLabel(subscription.status)}</Badge>],
    [t("billing.fields.currency"), subscription.currency],
    [t("billing.fields.created"), date(subscription.created)],
    [t("billing.fields.product"), subscription.product],
    [t("billing.fields.price"), priceText(subscription.amount, subscription.currency) ?? t("billing.plans.priceNotAvailable")],
    [t("billing.fields.periodStart"), date(subscription.currentPeriodStart)],
    [t("billing.fields.periodEnd"), date(subscription.currentPeriodEnd)],
  ];
  // What happens next, on its day in the reader's time zone: a subscription cancelled on a set date
  // (cancelAt) ends that day, one cancelled at the period's end ends then; a trial becomes a paid
  // month. (An ended one says nothing.)
  const ends = subscription.currentPeriodEnd ? format.date(subscription.currentPeriodEnd) : null;
  const ended = ENDED_STATUSES.includes(subscription.status);
  let ending: string | null = null;
  if (!ended && subscription.cancelAt) ending = t("billing.cancelOn", { date: format.date(subscription.cancelAt) });
  else if (!ended && subscription.cancelAtPeriodEnd) ending = ends ? t("billing.cancelOn", { date: ends }) : t("billing.cancelAtPeriodEnd");
  else if (subscription.status === "trialing" && ends) {
    ending = subscription.amount && /^[A-Z]{3}$/.test(subscription.currency)
      ? t("billing.trialEnds", { date: ends, price: format.money(subscription.amount, subscription.currency) })
      : t("billing.trialEndsNoPrice", { date: ends });
  }
  return (
    <div className={styles.subscription} data-testid="subscription" data-status={subscription.status}>
      <dl className={styles.details}>
        {rows.map(([label, value]) => (
          <div key={label} className={styles.row}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {ending !== null && <Alert tone="info">{ending}</Alert>}
      {/* An ended subscription cannot lapse any more: updating the card would not bring it back. */}
      {!ended && subscription.lastInvoice === "payment_failed" && <Alert tone="warning">{t("billing.invoiceFailed")}</Alert>}
      {subscription.status === "incomplete" && <AbandonIncomplete subscription={subscription} onAbandoned={onAbandoned} />}
    </div>
  );
}

/** "Choose another plan" for a subscription whose first payment did not go through: the server
 * cancels it at Stripe (only while it is still incomplete), and a plan can be chosen at once. */
function AbandonIncomplete({ subscription, onAbandoned }: { subscription: BillingSubscription; onAbandoned?: (() => void) | undefined }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const abandon = useAbandonSubscriptionMutation({
    onSuccess: () => {
      notify("success", t("billing.abandon.done"));
      onAbandoned?.();
    },
    onError: (error) => notify("error", errorText(error)),
  });
  return (
    <Alert tone="warning" title={t("billing.abandon.title")}>
      <p>{t("billing.abandon.text")}</p>
      <Button
        size="sm"
        loading={abandon.isPending}
        aria-label={t("billing.abandon.buttonFor", { name: subscription.product })}
        onClick={() => abandon.mutate(subscription.id)}
      >
        {t("billing.abandon.button")}
      </Button>
    </Alert>
  );
}

/** Starts a Checkout session and sends the browser there; a refusal is shown as a toast.
 *
 * One at a time, from the click on: a second click (a double click, or another plan's button)
 * before the first answer does nothing, even before React has re-rendered the button as busy. After
 * the answer the browser is on its way to Stripe, so the buttons stay busy ("Opening Stripe…")
 * rather than inviting another click. Coming back with the browser's back button restores the page
 * from the back-forward cache as it was left: then (pageshow, persisted) it is usable again and the
 * billing state is asked for afresh (the payment may have been made meanwhile). */
export function useStartCheckout() {
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const busy = useRef(false);
  const [started, setStarted] = useState<CheckoutRequest | null>(null);
  const checkout = useCheckoutMutation({
    onSuccess: (session) => goToStripe(session.url),
    onError: (error) => {
      busy.current = false;
      setStarted(null);
      notify("error", errorText(error));
    },
  });
  const { reset } = checkout;
  useEffect(() => {
    const back = (event: PageTransitionEvent) => {
      if (!event.persisted) return;
      busy.current = false;
      setStarted(null);
      reset();
      void queryClient.invalidateQueries({ queryKey: queryKeys.stripeSubscriptions });
    };
    window.addEventListener("pageshow", back);
    return () => window.removeEventListener("pageshow", back);
  }, [reset, queryClient]);
  const start = (request: CheckoutRequest) => {
    if (busy.current) return;
    busy.current = true;
    setStarted(request);
    checkout.mutate(request);
  };
  return { start, pending: started !== null, variables: started ?? undefined };
}

/** The currency plans are shown in (readerCurrency): the active workspace's base currency as this
 * device holds it (the workspaces as already loaded: nothing is asked for here), else by language. */
function useReaderCurrency(): string {
  const { language } = useLanguage();
  const workspaces = useQuery({ ...workspacesQuery(useApi()), enabled: false }).data;
  const { active } = useActiveWorkspace(workspaces);
  return readerCurrency(language, active ? readHeld(active.id)?.code : undefined);
}

/** The plans, each with its monthly price (in the reader's currency when the plan has one in it)
 * and a subscribe button. */
export function PlanList({ products, returnTo, disabled }: { products: BillingProduct[]; returnTo: "onboarding" | "billing"; disabled?: boolean }) {
  const { t } = useTranslation();
  const priceText = usePriceText();
  const online = useOnline();
  const currency = useReaderCurrency();
  const { start, pending, variables } = useStartCheckout();
  return (
    <ul className={styles.plans} aria-label={t("billing.plans.title")}>
      {products.map((product) => {
        const chosen = priceFor(product, currency);
        const price = chosen ? priceText(chosen.amount, chosen.currency) : null;
        return (
          <li key={product.id} data-testid="plan">
            <Card
              className={styles.plan}
              icon={<CreditCard size={20} />}
              title={product.name}
              headingLevel={2}
              description={product.description || undefined}
            >
              <p className={styles.price}>{price ?? <span className={styles.noPrice}>{t("billing.plans.priceNotAvailable")}</span>}</p>
              <Button
                variant="primary"
                block
                disabled={disabled || !online || !chosen || (pending && variables?.priceId !== chosen.id)}
                loading={pending && variables?.priceId === chosen?.id}
                loadingText={t("billing.cardCheck.redirecting")}
                aria-label={t("billing.plans.subscribeTo", { name: product.name })}
                onClick={() => chosen && start({ kind: "subscription", priceId: chosen.id, returnTo })}
              >
                {t("billing.plans.subscribe")}
              </Button>
            </Card>
          </li>
        );
      })}
    </ul>
  );
}
