// /signin: the sign-in screen, returning to ?redirect= afterwards.
import { getRouteApi } from "@tanstack/react-router";
import { SignInScreen } from "../../screens/auth/SignInScreen";

const route = getRouteApi("/public/signin");

export function SignInRoute() {
  const { redirect } = route.useSearch();
  return <SignInScreen redirect={redirect} />;
}
