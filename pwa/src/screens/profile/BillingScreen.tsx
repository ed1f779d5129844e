// /profile/billing?tab=billing: the subscription (the same data as the onboarding's status screen),
// "You don't have any active subscriptions" when none is active, and "Manage" through Stripe's
// customer portal (change the card, cancel). The plans tab subscribes again (after the card check
// when it was never done), except while a paid plan awaits Stripe's confirmation or a subscription
// bills unpaid (past_due, unpaid, incomplete, paused: "Manage" is the way, never a second plan; an
// incomplete one can also be abandoned, which opens the plans at once).
// With billing off the page says billing is not configured.
import { getRouteApi } from "@tanstack/react-router";
import { CircleSlash, CreditCard, ExternalLink, PackageOpen } from "lucide-react";
import { useTranslation } from "react-i18next";
import { ENTITLED_STATUSES, goToStripe, MANAGE_STATUSES, needsManage, useBillingState, usePortalMutation, useStripeProducts } from "../../api/billing";
import { useErrorText } from "../../api/useErrorText";
import { RoutePending } from "../../router/RoutePending";
import { NeedsConnection, useOnline } from "../../shell/NeedsConnection";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { cx } from "../../ui/cx";
import { EmptyState } from "../../ui/EmptyState";
import { PageHeader } from "../../ui/PageHeader";
import { Tab, TabList, TabPanel, Tabs, useSearchParamTab } from "../../ui/Tabs";
import page from "../page.module.css";
import styles from "./Billing.module.css";
import { PlanList, SubscriptionDetails, useStartCheckout } from "./BillingParts";

const route = getRouteApi("/app/profile/billing");
const TABS = ["billing", "plans"] as const;
const SETTLED_UNPAID: readonly string[] = ["past_due", "unpaid", "paused"];

export function BillingScreen() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { checkout } = route.useSearch();
  const [tab, setTab] = useSearchParamTab("tab", TABS, "billing");
  // Back from Checkout, asked every 2 s until Stripe's confirmation is in: the card verified, or the
  // plan's subscription active (or settled unpaid: past_due, unpaid, paused); then no more. An
  // incomplete one is still asked about: Checkout's subscription is often reported incomplete just
  // before it is reported active.
  const billing = useBillingState((known) => {
    if (checkout === "card") return known?.cardVerified ? false : 2000;
    if (checkout === "success") return known && (known.entitled || known.subscriptions.some((s) => SETTLED_UNPAID.includes(s.status))) ? false : 2000;
    return false;
  });
  const portal = usePortalMutation({ onSuccess: ({ url }) => goToStripe(url), onError: (error) => notify("error", errorText(error)) });
  const online = useOnline();

  let body;
  if (billing.isPending) {
    // Offline the query waits for a network: the notice above says why, no spinner.
    body = billing.fetchStatus === "paused" ? null : <RoutePending />;
  } else if (billing.isError) {
    body = <Alert tone="error">{errorText(billing.error)}</Alert>;
  } else if (!billing.data.enabled) {
    body = <EmptyState icon={<CircleSlash size={22} />} title={t("billing.page.off")} text={t("billing.page.offText")} headingLevel={2} />;
  } else {
    const state = billing.data;
    const active = state.subscriptions.filter((s) => ENTITLED_STATUSES.includes(s.status) || MANAGE_STATUSES.includes(s.status));
    const manage = needsManage(state);
    const confirming = checkout === "success" && !state.entitled && !manage;
    // No new plan while the paid one is on its way or a subscription still bills.
    const blocked = manage || confirming;
    const past = state.subscriptions.filter((s) => !active.includes(s));
    body = (
      <Tabs value={tab} onChange={setTab}>
        <TabList label={t("billing.page.tabs")}>
          <Tab value="billing">{t("billing.page.tabBilling")}</Tab>
          <Tab value="plans">{t("billing.page.tabPlans")}</Tab>
        </TabList>
        <TabPanel value="billing">
          <div className={styles.subscription}>
            {confirming && <Alert tone="info">{t("billing.page.confirming")}</Alert>}
            {manage && <Alert tone="warning">{t("billing.page.manageInstead")}</Alert>}
            {checkout === "cancel" && <Alert tone="warning">{t("billing.page.cancelled")}</Alert>}
            {!state.entitled && (
              <EmptyState
                icon={<PackageOpen size={22} />}
                title={t("billing.page.none")}
                text={t("billing.page.noneText")}
                headingLevel={2}
                action={
                  blocked ? undefined : (
                    <Button variant="primary" onClick={() => setTab("plans")}>
                      {t("billing.page.seePlans")}
                    </Button>
                  )
                }
              />
            )}
            {active.map((s) => (
              <Card key={s.id} title={s.product} headingLevel={2}>
                <SubscriptionDetails subscription={s} onAbandoned={() => setTab("plans")} />
              </Card>
            ))}
            {state.hasCustomer && (
              <div className={styles.actions}>
                <Button icon={<ExternalLink size={16} />} disabled={!online} loading={portal.isPending} onClick={() => portal.mutate()}>
                  {t("billing.page.manage")}
                </Button>
                <p className={styles.hint}>{t("billing.page.manageHint")}</p>
              </div>
            )}
            {past.length > 0 && (
              <Card title={t("billing.page.past")} headingLevel={2}>
                <div className={styles.subscription}>
                  {past.map((s) => (
                    <SubscriptionDetails key={s.id} subscription={s} />
                  ))}
                </div>
              </Card>
            )}
          </div>
        </TabPanel>
        <TabPanel value="plans">
          {checkout === "cancel" && <Alert tone="warning">{t("billing.page.cancelled")}</Alert>}
          {checkout === "card" && (
            <Alert tone={state.cardVerified ? "success" : "info"}>{t(state.cardVerified ? "billing.cardCheck.verified" : "billing.cardCheck.confirming")}</Alert>
          )}
          <BillingPlans cardVerified={state.cardVerified} entitled={state.entitled} blocked={blocked ? (manage ? "manage" : "confirming") : null} />
        </TabPanel>
      </Tabs>
    );
  }
  return (
    <div className={cx(page.page, page.medium, page.stack)}>
      <PageHeader title={t("billing.page.title")} subtitle={t("billing.page.subtitle")} />
      <NeedsConnection>{t("billing.page.offline")}</NeedsConnection>
      {body}
    </div>
  );
}

function BillingPlans({
  cardVerified,
  entitled,
  blocked,
}: {
  cardVerified: boolean;
  entitled: boolean;
  /** Why no plan is offered now: a subscription to manage, or a paid plan being confirmed. */
  blocked: "manage" | "confirming" | null;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const products = useStripeProducts();
  const { start, pending } = useStartCheckout();
  const online = useOnline();
  // Offline the query waits for a network: the page's notice says why, no spinner.
  if (products.isPending) return products.fetchStatus === "paused" ? null : <RoutePending />;
  if (products.isError) {
    return (
      <Alert tone="error" title={t("billing.plans.errorTitle")}>
        {errorText(products.error)}{" "}
        <Button size="sm" onClick={() => void products.refetch()}>
          {t("billing.plans.retry")}
        </Button>
      </Alert>
    );
  }
  return (
    <div className={styles.subscription}>
      {blocked === "manage" && <Alert tone="warning">{t("billing.page.manageInstead")}</Alert>}
      {blocked === "confirming" && <Alert tone="info">{t("billing.page.confirming")}</Alert>}
      {!cardVerified && (
        <Card icon={<CreditCard size={20} />} title={t("billing.cardCheck.title")} headingLevel={2} description={t("billing.plans.cardFirst")}>
          <Button variant="primary" disabled={!online} loading={pending} onClick={() => start({ kind: "card_check", returnTo: "billing" })}>
            {t("billing.plans.verifyCard")}
          </Button>
        </Card>
      )}
      {products.data.length === 0 ? (
        <EmptyState icon={<PackageOpen size={22} />} title={t("billing.plans.none")} text={t("billing.plans.noneText")} headingLevel={2} />
      ) : (
        <PlanList products={products.data} returnTo="billing" disabled={!cardVerified || entitled || blocked !== null} />
      )}
    </div>
  );
}
