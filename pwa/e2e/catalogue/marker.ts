// A string only the kit catalogue carries (its root element's data-page): catalogue.spec.ts looks
// for it to prove the e2e build has the page and the production build (pwa/dist) does not.
export const CATALOGUE_MARKER = "patrimonio-e2e-ui-catalogue";

/** Where the page is served in the e2e build (../sync-page/vite.config.ts). */
export const CATALOGUE_PATH = "/e2e/catalogue/index.html";
