// /profile/billing?tab=billing|plans: the billing page of the signed-in app (issue 14), with the way
// back from Stripe Checkout (?checkout=success|cancel) and from the customer portal.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { oneOf, searchSchema, text } from "./search";
import { appLayoutRoute, guardApp } from "./root";

export const billingSearchSchema = searchSchema({
  tab: oneOf("billing", "plans"),
  // success: a plan was paid; card: the card check was (it comes back to the plans); cancel: neither.
  checkout: oneOf("success", "card", "cancel"),
  session_id: text({ max: 255 }),
});

export const profileBillingRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/profile/billing",
  validateSearch: (search) => billingSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "billing.titles.billing", locales: ["billing"] },
  component: lazyRouteComponent(() => import("../screens/profile/BillingScreen"), "BillingScreen"),
});
