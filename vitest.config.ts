import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One `vitest run` at the root runs every workspace's unit tests.
export default defineConfig({
  test: {
    projects: ["shared-schema", "clientdb", "pwa"],
    // One worker per core, not Vitest's default of one less: much of the suite waits on the real
    // server binary, Postgres and jsdom's setup, so on CI's two cores two workers run it in about
    // 130 s against 210 s with one (the same machine, minutes apart).
    maxWorkers: availableParallelism(),
  },
});
