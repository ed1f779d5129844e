// The e2e build of the PWA: the production configuration (vite.config.ts: the same plugins, the
// same service worker) with two more pages, the sync test page (index.html + main.tsx here) and the
// UI kit catalogue (../catalogue/, catalogue.spec.ts).
// `make test-e2e` builds it into pwa/e2e/dist and sync.spec.ts serves that directory from its own
// server; the production build (pwa/dist) never contains the test page (sync.spec.ts checks it).
// The service worker of this build precaches the test page like the rest of the app shell, so it
// opens offline after a reload.
import path from "node:path";
import { mergeConfig } from "vite";
import production from "../../vite.config.ts";

const pwaRoot = path.resolve(import.meta.dirname, "../..");

const config = mergeConfig(production, {
  root: pwaRoot,
  build: {
    // support/sync-fixtures.ts (E2E_WEB_DIR) serves this directory.
    outDir: path.join(pwaRoot, "e2e", "dist"),
    emptyOutDir: true,
    rolldownOptions: {
      input: {
        index: path.join(pwaRoot, "index.html"),
        "e2e-sync": path.join(import.meta.dirname, "index.html"),
        // The UI kit catalogue (../catalogue/), checked by catalogue.spec.ts.
        "e2e-catalogue": path.join(pwaRoot, "e2e", "catalogue", "index.html"),
      },
    },
  },
});

// The production build puts every module the entry needs in one "app" chunk ($initial). With three
// entries here that chunk would hold all three pages' start code, and each page would run the
// others' too (two React roots on one #root). Here, the default chunking: one entry chunk per page.
config.build.rolldownOptions.output = { ...config.build.rolldownOptions.output, codeSplitting: true };

export default config;
