// /onboarding/card-check: the card verification of the spec's onboarding — a payment of 1 US dollar
// in Stripe Checkout that also keeps the card for the monthly subscription. Coming back from
// Checkout: ?checkout=success waits for Stripe's signed confirmation (the webhook records it; the
// screen asks again every 2 s and offers "Check again", not "Pay" — paying twice would charge twice),
// ?checkout=cancel says nothing was charged.
// Once the card is verified the plan comes next.
import { getRouteApi, Navigate } from "@tanstack/react-router";
import { CreditCard, RefreshCw } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useBillingState, useRefreshBillingMutation } from "../../api/billing";
import { useErrorText } from "../../api/useErrorText";
import { useFormatters } from "../../i18n/useFormatters";
import { RoutePending } from "../../router/RoutePending";
import { NeedsConnection, useOnline } from "../../shell/NeedsConnection";
import { notify } from "../../toast/toast";
import { Alert } from "../../ui/Alert";
import { Button } from "../../ui/Button";
import { Card } from "../../ui/Card";
import styles from "../profile/Billing.module.css";
import { useStartCheckout } from "../profile/BillingParts";

const route = getRouteApi("/public/onboarding/card-check");

/** The card check: 1 US dollar (spec §9). */
export const CARD_CHECK = { amount: "1.00", currency: "USD" } as const;

export function CardCheckScreen() {
  const { t } = useTranslation();
  const format = useFormatters();
  const errorText = useErrorText();
  const { checkout } = route.useSearch();
  const confirming = checkout === "success";
  const billing = useBillingState(confirming ? 2000 : false);
  const refresh = useRefreshBillingMutation({ onError: (error) => notify("error", errorText(error)) });
  const { start, pending } = useStartCheckout();
  const online = useOnline();
  const amount = format.money(CARD_CHECK.amount, CARD_CHECK.currency);

  if (billing.data?.cardVerified) return <Navigate to="/onboarding/suscription" replace />;
  // Offline the query waits for a network: the notice says why, no spinner.
  if (billing.isPending && billing.fetchStatus !== "paused") return <RoutePending />;
  return (
    <Card title={t("billing.cardCheck.title")} icon={<CreditCard size={20} />} headingLevel={1} description={t("billing.cardCheck.text", { amount })}>
      <div className={styles.subscription}>
        <NeedsConnection>{t("billing.offline")}</NeedsConnection>
        {billing.isError && <Alert tone="error">{errorText(billing.error)}</Alert>}
        {confirming && <Alert tone="info">{t("billing.cardCheck.confirming")}</Alert>}
        {checkout === "cancel" && <Alert tone="warning">{t("billing.cardCheck.cancelled")}</Alert>}
        <div className={styles.actions}>
          {!confirming && (
            <Button variant="primary" disabled={!online} loading={pending} loadingText={t("billing.cardCheck.redirecting")} onClick={() => start({ kind: "card_check" })}>
              {t("billing.cardCheck.pay", { amount })}
            </Button>
          )}
          {confirming && (
            <Button icon={<RefreshCw size={16} />} disabled={!online} loading={refresh.isPending} onClick={() => refresh.mutate()}>
              {t("billing.status.reverify")}
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}
