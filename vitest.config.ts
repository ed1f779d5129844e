import { defineConfig } from "vitest/config";

// One `vitest run` at the root runs every workspace's unit tests.
export default defineConfig({
  test: {
    projects: ["shared-schema", "clientdb", "pwa"],
  },
});
