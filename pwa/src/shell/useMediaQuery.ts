// A CSS media query as React state, following changes (rotation, window resizing).
import { useCallback, useSyncExternalStore } from "react";

/** Phones: the top bar keeps the workspace, the sync status and the user menu; the language and
 * theme switches move into the sidebar drawer. Mirrors the breakpoint of the shell's CSS. */
export const PHONE_QUERY = "(max-width: 640px)";

function mediaQueryList(query: string): MediaQueryList | undefined {
  return typeof window !== "undefined" && typeof window.matchMedia === "function" ? window.matchMedia(query) : undefined;
}

/** Whether `query` matches now; false where the browser cannot tell (no matchMedia). */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = mediaQueryList(query);
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => mediaQueryList(query)?.matches ?? false,
    () => false,
  );
}
