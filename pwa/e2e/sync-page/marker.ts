// A string only the sync test page carries (its root element's data-page): sync.spec.ts looks for
// it to prove the e2e build has the page and the production build (pwa/dist) does not.
export const SYNC_PAGE_MARKER = "patrimonio-e2e-sync-test-page";

/** Where the page is served in the e2e build (vite.config.ts next to this file). */
export const SYNC_PAGE_PATH = "/e2e/sync-page/index.html";
