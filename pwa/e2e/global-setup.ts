import { existsSync } from "node:fs";
import path from "node:path";
import { BINARY, REPO_ROOT, startServer } from "./support/server";

// Starts the real binary twice: on SQLite (the app under test) and on Postgres (for the health check
// on both stores). The URLs reach the tests through environment variables.
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(BINARY) || !existsSync(path.join(REPO_ROOT, "pwa", "dist", "index.html"))) {
    throw new Error("build first: `make build` (the e2e tests run the real binary and the built PWA)");
  }
  const databaseURL = process.env.TEST_DATABASE_URL;
  if (!databaseURL) {
    throw new Error("TEST_DATABASE_URL is unset: run through `make test-e2e`, which starts a throwaway Postgres");
  }
  const sqlite = await startServer();
  const postgres = await startServer({ DATABASE_URL: databaseURL });
  process.env.E2E_BASE_URL = sqlite.url;
  process.env.E2E_PG_BASE_URL = postgres.url;
  return async () => {
    await Promise.all([sqlite.stop(), postgres.stop()]);
  };
}
