// /profile/billing?tab=billing|plans: the billing page of the signed-in app (issue 14), with the way
// back from Stripe Checkout (?checkout=success|cancel) and from the customer portal.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import * as z from "zod";
import { appLayoutRoute, guardApp } from "./root";

export const billingSearchSchema = z.object({
  tab: z.enum(["billing", "plans"]).optional().catch(undefined),
  checkout: z.enum(["success", "cancel"]).optional().catch(undefined),
  session_id: z.string().max(255).optional().catch(undefined),
});

export const profileBillingRoute = createRoute({
  getParentRoute: () => appLayoutRoute,
  path: "/profile/billing",
  validateSearch: (search) => billingSearchSchema.parse(search),
  beforeLoad: guardApp,
  staticData: { titleKey: "billing.titles.billing", locales: ["billing"] },
  component: lazyRouteComponent(() => import("../screens/profile/BillingScreen"), "BillingScreen"),
});
