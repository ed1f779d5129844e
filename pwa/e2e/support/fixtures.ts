import { test as base, expect } from "@playwright/test";

/**
 * E2E_SLOW_CHUNKS=<ms> delays every JavaScript file the app loads by that long: a probe for tests that
 * act on a screen before its lazily loaded code has replaced the one before it (the router changes the
 * URL first, and keeps the old screen up meanwhile). Off by default; with it on, service workers are
 * blocked (they would serve the files from their cache) and the offline tests fail, so it is a
 * probe, not a mode of the suite.
 */
const slowChunks = Number(process.env.E2E_SLOW_CHUNKS ?? 0);

/**
 * The base URL of the SQLite-backed server started by global-setup.ts, and a browser signed in as
 * the onboarded user global setup made (`visitorTest` below starts signed out).
 */
export const test = base.extend({
  // A service worker would serve the app's files from its cache, past the delay.
  // eslint-disable-next-line no-empty-pattern
  serviceWorkers: async ({}, use) => {
    await use(slowChunks > 0 ? "block" : "allow");
  },
  context: async ({ context }, use) => {
    if (slowChunks > 0) {
      await context.route(/\/_app\/[^?]*\.js(\?|$)/, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, slowChunks));
        await route.continue();
      });
    }
    await use(context);
  },
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL is unset: global setup did not start the server");
    await use(url);
  },
  // eslint-disable-next-line no-empty-pattern
  storageState: async ({}, use) => {
    const state = process.env.E2E_STORAGE_STATE;
    if (!state) throw new Error("E2E_STORAGE_STATE is unset: global setup did not sign anyone in");
    await use(state);
  },
});

/** Like `test`, in a fresh browser with nobody signed in. */
export const visitorTest = test.extend({
  // eslint-disable-next-line no-empty-pattern
  storageState: async ({}, use) => {
    await use({ cookies: [], origins: [] });
  },
});

export { expect };
