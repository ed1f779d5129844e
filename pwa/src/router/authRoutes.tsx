// /signin, /signup and /signup/verify. Visitors only (a signed-in user goes on to where they belong);
// ?redirect= (a same-origin path, checked) is where sign-in returns to.
import { createRoute } from "@tanstack/react-router";
import * as z from "zod";
import { decideGuestRoute, decideOnboardingRoute, safeRedirect } from "../auth/guards";
import { SignInScreen } from "../screens/auth/SignInScreen";
import { SignUpScreen } from "../screens/auth/SignUpScreen";
import { VerifyEmailScreen } from "../screens/auth/VerifyEmailScreen";
import { enforce, loadMeForGuard, rootRoute } from "./root";

export const authSearchSchema = z.object({
  redirect: z
    .string()
    .transform((value) => safeRedirect(value))
    .optional()
    .catch(undefined),
});

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/signin",
  validateSearch: (search) => authSearchSchema.parse(search),
  beforeLoad: async ({ context, search }) => enforce(decideGuestRoute(await loadMeForGuard(context), search.redirect)),
  component: function SignInRoute() {
    const { redirect } = signInRoute.useSearch();
    return <SignInScreen redirect={redirect} />;
  },
});

export const signUpRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/signup",
  validateSearch: (search) => authSearchSchema.parse(search),
  beforeLoad: async ({ context, search }) => enforce(decideGuestRoute(await loadMeForGuard(context), search.redirect)),
  component: SignUpScreen,
});

export const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: "/signup/verify",
  beforeLoad: async ({ context }) => enforce(decideOnboardingRoute(await loadMeForGuard(context), "verify_email")),
  component: VerifyEmailScreen,
});
