// /onboarding/status: the subscription as Stripe confirmed it to the server (id, status in the spec's
// words, currency, created, product, price, current period) and the re-verify option ("Check
// again": the server asks Stripe). Back from Checkout it waits for the signed webhook, asking every
// 2 s, and offers no plan meanwhile (the paid one is on its way); once the subscription is active
// onboarding is over and the dashboard is one click away. A subscription that bills unpaid
// (past_due, unpaid, incomplete, paused) gets "Manage" (the portal), never a second plan; an
// incomplete one can be abandoned, and then the plans are one step away.
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router";
import { ArrowRight, ExternalLink, RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { goToStripe, needsManage, useBillingState, usePortalMutation, useRefreshBillingMutation } from "../../api/billing";
import { useErrorText } from "../../api/useErrorText";
import { useRefreshMe } from "../../auth/useSession";
import { RoutePending } from "../../router/RoutePending";
import { NeedsConnection, useOnline } from "../../shell/NeedsConnection";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button, buttonClass } from "../../ui/Button";
import { Card } from "../../ui/Card";
import { PageHeader } from "../../ui/PageHeader";
import styles from "../profile/Billing.module.css";
import { SubscriptionDetails } from "../profile/BillingParts";

const route = getRouteApi("/public/onboarding/status");

export function StatusScreen() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const refreshMe = useRefreshMe();
  const { checkout } = route.useSearch();
  const first = useBillingState();
  const waiting = first.data !== undefined && !first.data.entitled;
  const billing = useBillingState(waiting && checkout === "success" ? 2000 : false);
  const refresh = useRefreshBillingMutation({
    onSuccess: () => notify("success", t("billing.status.reverified")),
    onError: (error) => notify("error", errorText(error)),
  });
  const portal = usePortalMutation({ onSuccess: ({ url }) => goToStripe(url), onError: (error) => notify("error", errorText(error)) });
  const online = useOnline();
  // Offline the query waits for a network: the notice says why, no spinner.
  if (billing.isPending && billing.fetchStatus !== "paused") return <RoutePending />;
  const state = billing.data;
  const manage = state !== undefined && needsManage(state);
  return (
    <section aria-labelledby="status-title" className={styles.subscription}>
      <PageHeader title={<span id="status-title">{t("billing.status.title")}</span>} subtitle={t("billing.status.subtitle")} />
      <NeedsConnection>{t("billing.offline")}</NeedsConnection>
      {billing.isError && <Alert tone="error">{errorText(billing.error)}</Alert>}
      {state?.entitled && state.enabled && <Alert tone="success">{t("billing.status.active")}</Alert>}
      {state && !state.entitled && !manage && <Alert tone="info">{t("billing.status.waiting")}</Alert>}
      {manage && <Alert tone="warning">{t("billing.page.manageInstead")}</Alert>}
      {state?.subscriptions.map((s) => (
        <Card key={s.id} title={s.product} headingLevel={2}>
          <SubscriptionDetails subscription={s} onAbandoned={() => void navigate({ to: "/onboarding/suscription" })} />
        </Card>
      ))}
      <div className={styles.actions}>
        {state?.entitled ? (
          <Button
            variant="primary"
            iconEnd={<ArrowRight size={16} />}
            onClick={async () => {
              await refreshMe();
              await navigate({ to: "/" });
            }}
          >
            {t("billing.status.toDashboard")}
          </Button>
        ) : manage ? (
          <Button icon={<ExternalLink size={16} />} disabled={!online} loading={portal.isPending} onClick={() => portal.mutate()}>
            {t("billing.page.manage")}
          </Button>
        ) : (
          checkout !== "success" && (
            <Link to="/onboarding/suscription" className={buttonClass({ variant: "secondary" })}>
              {t("billing.status.choosePlan")}
            </Link>
          )
        )}
        {state?.enabled && (
          <Button icon={<RefreshCw size={16} />} disabled={!online} loading={refresh.isPending} onClick={() => refresh.mutate()}>
            {t("billing.status.reverify")}
          </Button>
        )}
      </div>
    </section>
  );
}
