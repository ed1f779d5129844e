// Routing defaults from the spec, in one place: preload on intent after 50 ms, show the pending view
// only after 1000 ms and then for at least 500 ms, treat preloaded data as fresh for 30 s, restore
// scroll positions, and reset the main scroll area to the top on each new navigation.

/** id of the app's scrollable <main>; the router scrolls it to the top on navigation. */
export const MAIN_SCROLL_ID = "main-content";

export const ROUTER_DEFAULTS = {
  defaultPreload: "intent" as const,
  defaultPreloadDelay: 50,
  defaultPendingMs: 1000,
  defaultPendingMinMs: 500,
  defaultPreloadStaleTime: 30_000,
  scrollRestoration: true,
  scrollToTopSelectors: [`#${MAIN_SCROLL_ID}`],
};
