// Signing up and in (/api/v1/auth) and onboarding: every mutation, with what it refreshes declared
// once here. Screens only add their reactions (navigate on, show a toast).
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { CodeRequest, EmailRequest, SignInRequest, SignUpRequest, SignUpVerifyRequest } from "@patrimonio/shared-schema";
import { getPasskeyAssertion } from "../auth/webauthn";
import { useApi } from "./ApiProvider";
import type { ApiClient } from "./client";
import { endpoints } from "./endpoints";
import { useApiMutation, type MutationCallbacks } from "./mutations";
import { meQuery } from "./queries";
import type { Me, OnboardingState, SignInResult, SignUpStarted, User } from "./types";

/** Reads /me again now: who is signed in, their onboarding step, their workspaces. */
export function refetchMe(api: ApiClient, queryClient: QueryClient): Promise<Me | null> {
  return queryClient.fetchQuery({ ...meQuery(api), staleTime: 0 });
}

/** Starts an account: the server answers the same for a new and a taken address, without a session;
 * the e-mailed code is asked for next (useSignUpVerifyMutation). */
export function useSignUpMutation(callbacks?: MutationCallbacks<SignUpStarted, SignUpRequest>) {
  const api = useApi();
  return useApiMutation({ mutationFn: (body: SignUpRequest) => endpoints.signUp(api, body) }, callbacks);
}

/** Confirms a sign-up with its code: signs in, so /me is read again. */
export function useSignUpVerifyMutation(callbacks?: MutationCallbacks<unknown, SignUpVerifyRequest>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    { mutationFn: (body: SignUpVerifyRequest) => endpoints.signUpVerify(api, body), afterSuccess: () => refetchMe(api, queryClient) },
    callbacks,
  );
}

/** Sends a sign-up's code again (answers the same for any address; 429 with Retry-After when too soon). */
export function useSignUpResendMutation(callbacks?: MutationCallbacks<SignUpStarted, EmailRequest>) {
  const api = useApi();
  return useApiMutation({ mutationFn: (body: EmailRequest) => endpoints.signUpResend(api, body) }, callbacks);
}

/** Password sign-in; with an authenticator app on the account, mfaRequired asks for its code next. */
export function useSignInMutation(callbacks?: MutationCallbacks<SignInResult, SignInRequest>) {
  const api = useApi();
  return useApiMutation({ mutationFn: (body: SignInRequest) => endpoints.signIn(api, body) }, callbacks);
}

export type SecondFactorBody = { code: string } | { recoveryCode: string };

/** The second step of a password sign-in: an authenticator code or a recovery code. */
export function useSecondFactorMutation(callbacks?: MutationCallbacks<unknown, SecondFactorBody>) {
  const api = useApi();
  return useApiMutation({ mutationFn: (body: SecondFactorBody) => endpoints.signInSecondFactor(api, body) }, callbacks);
}

/** Sign-in with a passkey: the server's challenge, the browser's assertion, the server's check. */
export function usePasskeySignInMutation(callbacks?: MutationCallbacks<{ user: User }, void>) {
  const api = useApi();
  return useApiMutation(
    {
      mutationFn: async () => {
        const options = await endpoints.passkeyLoginBegin(api);
        const credential = await getPasskeyAssertion(options);
        return endpoints.passkeyLoginFinish(api, credential);
      },
    },
    callbacks,
  );
}

/** Confirms the new account's address with the e-mailed code; /me is read again (onboarding moves on). */
export function useVerifyEmailMutation(callbacks?: MutationCallbacks<unknown, CodeRequest>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    { mutationFn: (body: CodeRequest) => endpoints.verifyEmail(api, body.code), afterSuccess: () => refetchMe(api, queryClient) },
    callbacks,
  );
}

/** Sends a new verification code (at most one a minute: 429 with Retry-After). */
export function useResendEmailCodeMutation(callbacks?: MutationCallbacks<unknown, void>) {
  const api = useApi();
  return useApiMutation({ mutationFn: () => endpoints.resendEmailCode(api) }, callbacks);
}

export interface AdvanceOnboarding {
  step: string;
  action: "complete" | "skip";
}

/** Finishes or skips an onboarding step on the server; /me is read again. */
export function useAdvanceOnboardingMutation(callbacks?: MutationCallbacks<{ onboarding: OnboardingState }, AdvanceOnboarding>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    {
      mutationFn: ({ step, action }: AdvanceOnboarding) => endpoints.advanceOnboarding(api, step, action),
      afterSuccess: () => refetchMe(api, queryClient),
    },
    callbacks,
  );
}
