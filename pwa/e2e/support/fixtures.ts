import { test as base, expect } from "@playwright/test";

/**
 * The base URL of the SQLite-backed server started by global-setup.ts, and a browser signed in as
 * the onboarded user global setup made (`visitorTest` below starts signed out).
 */
export const test = base.extend({
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
