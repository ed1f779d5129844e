// Routing defaults from the spec, in one place: preload on intent after 50 ms, show the pending view
// only after 1000 ms and then for at least 500 ms, treat preloaded data as fresh for 30 s, restore
// scroll positions, and reset the main scroll area to the top on each new navigation.

/** id of the app's scrollable <main> (in both layouts); the router scrolls it to the top on navigation. */
export const MAIN_SCROLL_ID = "main-content";
/** id of the plain layout's page, which scrolls as a whole (header, page and footer). */
export const PUBLIC_SCROLL_ID = "public-page";

export const ROUTER_DEFAULTS = {
  defaultPreload: "intent" as const,
  defaultPreloadDelay: 50,
  defaultPendingMs: 1000,
  defaultPendingMinMs: 500,
  defaultPreloadStaleTime: 30_000,
  scrollRestoration: true,
  scrollToTopSelectors: [`#${MAIN_SCROLL_ID}`, `#${PUBLIC_SCROLL_ID}`],
};
