// The hosted provider's screens (Clerk), loaded only when /api/v1/auth/config says provider "clerk".
// Same destinations as the local screens: "/" after sign-in, "/onboarding#/security" after sign-up.
// The server verifies Clerk's session token (the __session cookie) on every API call.
import { ClerkProvider, SignIn, SignUp, useClerk } from "@clerk/clerk-react";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../../api/queries";
import { clerkLocalization } from "../../auth/clerkLocalization";
import { AFTER_SIGN_IN_PATH } from "../../auth/guards";
import { SIGNED_OUT_MARKER } from "../../auth/signOut";
import { AuthPage } from "./AuthCard";

const AFTER_SIGN_UP_URL = "/onboarding#/security";

function ClerkFrame({ publishableKey, children }: { publishableKey: string; children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { i18n } = useTranslation();
  // Clerk navigates through the app's router; /me is read afresh first, so the guards see the new
  // session instead of the "signed out" they remembered.
  const go = async (to: string, replace: boolean) => {
    await queryClient.resetQueries({ queryKey: queryKeys.me });
    await navigate({ href: to, replace });
  };
  return (
    <ClerkProvider
      publishableKey={publishableKey}
      localization={clerkLocalization(i18n.resolvedLanguage ?? i18n.language)}
      routerPush={(to) => go(to, false)}
      routerReplace={(to) => go(to, true)}
      signInUrl="/signin"
      signUpUrl="/signup"
      signInFallbackRedirectUrl={AFTER_SIGN_IN_PATH}
      signUpFallbackRedirectUrl={AFTER_SIGN_UP_URL}
      afterSignOutUrl="/signin"
    >
      <EndClerkSessionAfterSignOut />
      <AuthPage>{children}</AuthPage>
    </ClerkProvider>
  );
}

/** The app signed out (and wiped the device); end the hosted session too, once. */
function EndClerkSessionAfterSignOut() {
  const clerk = useClerk();
  useEffect(() => {
    let marked = false;
    try {
      marked = sessionStorage.getItem(SIGNED_OUT_MARKER) !== null;
      sessionStorage.removeItem(SIGNED_OUT_MARKER);
    } catch {
      marked = false;
    }
    if (marked) void clerk.signOut();
  }, [clerk]);
  return null;
}

export function ClerkSignIn({ publishableKey }: { publishableKey: string }) {
  return (
    <ClerkFrame publishableKey={publishableKey}>
      <SignIn routing="hash" signUpUrl="/signup" fallbackRedirectUrl={AFTER_SIGN_IN_PATH} />
    </ClerkFrame>
  );
}

export function ClerkSignUp({ publishableKey }: { publishableKey: string }) {
  return (
    <ClerkFrame publishableKey={publishableKey}>
      <SignUp routing="hash" signInUrl="/signin" fallbackRedirectUrl={AFTER_SIGN_UP_URL} />
    </ClerkFrame>
  );
}
