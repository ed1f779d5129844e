// The signed-in user's own data (/api/v1/users): personal identity, the change of e-mail address.
// Mutations defined once, each refreshing /me.
import { useQueryClient } from "@tanstack/react-query";
import type { CodeRequest, EmailRequest } from "@patrimonio/shared-schema";
import { useApi } from "./ApiProvider";
import { refetchMe } from "./auth";
import { endpoints } from "./endpoints";
import { useApiMutation, type MutationCallbacks } from "./mutations";
import type { EmailChange, PersonalIdentityInput, User } from "./types";

/** Saves the personal identity (PATCH /users/; 400 names the fields at fault). */
export function useUpdatePersonalIdentityMutation(callbacks?: MutationCallbacks<{ user: User }, PersonalIdentityInput>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    { mutationFn: (body: PersonalIdentityInput) => endpoints.updatePersonalIdentity(api, body), afterSuccess: () => refetchMe(api, queryClient) },
    callbacks,
  );
}

/** Sends a code to the new address (needs a recent proof); nothing changes until it is confirmed. */
export function useRequestEmailChangeMutation(callbacks?: MutationCallbacks<EmailChange, EmailRequest>) {
  const api = useApi();
  return useApiMutation({ mutationFn: (body: EmailRequest) => endpoints.requestEmailChange(api, body.email) }, callbacks);
}

/** Confirms the new address with its code; /me is read again. */
export function useConfirmEmailChangeMutation(callbacks?: MutationCallbacks<{ user: User }, CodeRequest>) {
  const api = useApi();
  const queryClient = useQueryClient();
  return useApiMutation(
    { mutationFn: (body: CodeRequest) => endpoints.confirmEmailChange(api, body.code), afterSuccess: () => refetchMe(api, queryClient) },
    callbacks,
  );
}
