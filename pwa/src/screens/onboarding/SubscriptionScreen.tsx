// /onboarding/suscription (the spec's spelling): the plans with their monthly price and a subscribe
// button each; "Price not available" for a plan without one. The route's loader fetches the plans
// before the screen shows (the router's spinner while it waits, SubscriptionError when it fails).
// Subscribing opens Stripe Checkout; ?checkout=cancel on the way back says nothing was charged.
import { getRouteApi, Link, useRouter, type ErrorComponentProps } from "@tanstack/react-router";
import { PackageOpen, RotateCw, TriangleAlert } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useBillingState, useStripeProducts } from "../../api/billing";
import { useErrorText } from "../../api/useErrorText";
import { Alert } from "../../ui/Alert";
import { Button, buttonClass } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { NeedsConnection } from "../../shell/NeedsConnection";
import { PageHeader } from "../../ui/PageHeader";
import styles from "../profile/Billing.module.css";
import { PlanList } from "../profile/BillingParts";

const route = getRouteApi("/public/onboarding/suscription");

export function SubscriptionScreen() {
  const { t } = useTranslation();
  const { checkout } = route.useSearch();
  const products = useStripeProducts();
  const billing = useBillingState();
  const cardFirst = billing.data !== undefined && !billing.data.cardVerified;
  const plans = products.data ?? [];
  return (
    <section aria-labelledby="plans-title" className={styles.subscription}>
      <PageHeader title={<span id="plans-title">{t("billing.plans.title")}</span>} subtitle={t("billing.plans.subtitle")} />
      <NeedsConnection>{t("billing.offline")}</NeedsConnection>
      {checkout === "cancel" && <Alert tone="warning">{t("billing.plans.cancelled")}</Alert>}
      {cardFirst && (
        <Alert tone="warning">
          {t("billing.plans.cardFirst")}{" "}
          <Link to="/onboarding/card-check" className={buttonClass({ variant: "secondary", size: "sm" })}>
            {t("billing.plans.verifyCard")}
          </Link>
        </Alert>
      )}
      {/* Offline before the plans came (the loader does not wait for a network): the notice alone. */}
      {products.isPending ? null : plans.length === 0 ? (
        <EmptyState icon={<PackageOpen size={22} />} title={t("billing.plans.none")} text={t("billing.plans.noneText")} headingLevel={2} />
      ) : (
        <PlanList products={plans} returnTo="onboarding" disabled={cardFirst} />
      )}
    </section>
  );
}

/** The plan screen's error view: what failed, and a retry that runs the loader again. */
export function SubscriptionError({ error, reset }: Pick<ErrorComponentProps, "error" | "reset">) {
  const { t } = useTranslation();
  const router = useRouter();
  const errorText = useErrorText();
  return (
    <EmptyState
      role="alert"
      aria-labelledby="plans-error-title"
      data-testid="plans-error"
      tone="danger"
      icon={<TriangleAlert size={22} />}
      headingLevel={1}
      headingId="plans-error-title"
      title={t("billing.plans.errorTitle")}
      text={`${errorText(error)} ${t("billing.plans.errorText")}`}
      action={
        <Button
          variant="primary"
          icon={<RotateCw size={16} />}
          onClick={() => {
            reset();
            void router.invalidate();
          }}
        >
          {t("billing.plans.retry")}
        </Button>
      }
    />
  );
}
