// What every mutation hook of pwa/src/api/ accepts from a screen: its own reactions (a toast, a
// navigation) after the hook's cache work (invalidation, cache updates) is done. The cache work is
// declared once, in the hook; screens never repeat it.
import { useMutation, type UseMutationResult } from "@tanstack/react-query";

export interface MutationCallbacks<TData, TVariables> {
  onSuccess?: (data: TData, variables: TVariables) => unknown;
  onError?: (error: Error, variables: TVariables) => unknown;
}

interface MutationDefinition<TData, TVariables> {
  mutationFn: (variables: TVariables) => Promise<TData>;
  /** The cache work after success (invalidations, cache updates), awaited before the screen's onSuccess. */
  afterSuccess?: (data: TData, variables: TVariables) => unknown;
  /** The cache work after a failure (refetch what may have changed elsewhere), before the screen's onError. */
  afterError?: (error: Error, variables: TVariables) => unknown;
}

/** A mutation with its cache work declared by the api module and the screen's reactions added. The
 * online API fails at once while offline (networkMode "always") instead of waiting for a network. */
export function useApiMutation<TData, TVariables = void>(
  definition: MutationDefinition<TData, TVariables>,
  callbacks: MutationCallbacks<TData, TVariables> = {},
): UseMutationResult<TData, Error, TVariables> {
  return useMutation<TData, Error, TVariables>({
    mutationFn: definition.mutationFn,
    networkMode: "always",
    onSuccess: async (data, variables) => {
      await definition.afterSuccess?.(data, variables);
      await callbacks.onSuccess?.(data, variables);
    },
    onError: async (error, variables) => {
      await definition.afterError?.(error, variables);
      await callbacks.onError?.(error, variables);
    },
  });
}
