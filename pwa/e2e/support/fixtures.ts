import { test as base, expect } from "@playwright/test";

/** The base URL of the SQLite-backed server started by global-setup.ts. */
export const test = base.extend({
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error("E2E_BASE_URL is unset: global setup did not start the server");
    await use(url);
  },
});

export { expect };
