// /signin, /signup and /signup/verify, in the plain layout. Visitors only (a signed-in user goes on
// to where they belong); ?redirect= (a same-origin path, checked) is where sign-in returns to.
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { searchSchema, text } from "./search";
import { decideGuestRoute, decideOnboardingRoute, safeRedirect } from "../auth/guards";
import { enforce, loadMeForGuard, publicLayoutRoute } from "./root";

export const authSearchSchema = searchSchema({
  redirect: (raw: unknown) => (typeof raw === "string" ? safeRedirect(raw) : undefined),
});

const emailSearchSchema = searchSchema({ email: text() });
const tokenSearchSchema = searchSchema({ token: text() });

export const signInRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: "/signin",
  validateSearch: (search) => authSearchSchema.parse(search),
  beforeLoad: async ({ context, search }) => enforce(decideGuestRoute(await loadMeForGuard(context), search.redirect)),
  staticData: { titleKey: "shell.titles.signIn", locales: [] },
  component: lazyRouteComponent(() => import("./screens/SignInRoute"), "SignInRoute"),
});

export const signUpRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: "/signup",
  validateSearch: (search) => authSearchSchema.parse(search),
  beforeLoad: async ({ context, search }) => enforce(decideGuestRoute(await loadMeForGuard(context), search.redirect)),
  staticData: { titleKey: "shell.titles.signUp", locales: [] },
  component: lazyRouteComponent(() => import("../screens/auth/SignUpScreen"), "SignUpScreen"),
});

export const verifyEmailRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: "/signup/verify",
  // ?email= is the address that has just signed up (no session yet: the code signs in).
  validateSearch: (search) => emailSearchSchema.parse(search),
  beforeLoad: async ({ context, search }) => enforce(decideOnboardingRoute(await loadMeForGuard(context), "verify_email", search.email)),
  staticData: { titleKey: "shell.titles.verifyEmail", locales: [] },
  component: lazyRouteComponent(() => import("../screens/auth/VerifyEmailScreen"), "VerifyEmailScreen"),
});

// /password/forgot and /password/reset?token= (issue 11, H5): resetting a forgotten password by
// e-mail. Open to everyone: the e-mailed link may be opened on any device, signed in or not.
export const passwordForgotRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: "/password/forgot",
  staticData: { titleKey: "shell.titles.passwordForgot", locales: [] },
  component: lazyRouteComponent(() => import("../screens/password/PasswordResetScreens"), "ForgotPasswordScreen"),
});

export const passwordResetRoute = createRoute({
  getParentRoute: () => publicLayoutRoute,
  path: "/password/reset",
  validateSearch: (search) => tokenSearchSchema.parse(search),
  staticData: { titleKey: "shell.titles.passwordReset", locales: [] },
  component: lazyRouteComponent(() => import("./screens/PasswordResetRoute"), "PasswordResetRoute"),
});
