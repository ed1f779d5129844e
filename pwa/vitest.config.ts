import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { localeChunks } from "./src/i18n/localeChunks";

export default defineProject({
  // The app's lazily loaded locale parts (createLazyI18n); createI18n bundles everything.
  plugins: [localeChunks({ dir: fileURLToPath(new URL("./src/i18n/locales", import.meta.url)) })],
  resolve: {
    alias: {
      // Exists only in a Vite build with vite-plugin-pwa; tests use a stand-in they control.
      "virtual:pwa-register/react": fileURLToPath(new URL("./src/test/fakePwaRegister.ts", import.meta.url)),
    },
  },
  test: {
    name: "pwa",
    include: ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts"],
    // jsdom for every file: the theme, router and component tests need a DOM; the pure ones do not mind.
    environment: "jsdom",
    setupFiles: ["src/test/setup.ts"],
    // Whole-app renders (lazy screens, the device database, a router) take 2-4 s on two cores that
    // other work shares; Vitest's default of 5 s a test then fails them for nothing.
    testTimeout: 15_000,
  },
});
