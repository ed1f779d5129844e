import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createOnboardedAccount, E2E_ADMIN_EMAIL, storageStateFor } from "./support/accounts";
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
  // One app admin by configuration (account.spec.ts signs it up when it needs it).
  const sqlite = await startServer({ PATRIMONIO_ADMIN_EMAILS: E2E_ADMIN_EMAIL });
  const postgres = await startServer({ DATABASE_URL: databaseURL });
  process.env.E2E_BASE_URL = sqlite.url;
  process.env.E2E_DATA_DIR = sqlite.dataDir;
  process.env.E2E_PG_BASE_URL = postgres.url;
  // The screens need a signed-in user: tests start signed in as one who finished onboarding
  // (support/fixtures.ts), unless they ask for a fresh, signed-out browser (auth.spec.ts).
  try {
    const account = await createOnboardedAccount(sqlite.url, "e2e-shell@example.com", "lengthy e2e passphrase 4821");
    const statePath = path.join(sqlite.dataDir, "storage-state.json");
    writeFileSync(statePath, JSON.stringify(storageStateFor(sqlite.url, account)));
    process.env.E2E_STORAGE_STATE = statePath;
  } catch (error) {
    await Promise.all([sqlite.stop(), postgres.stop()]);
    throw error;
  }
  return async () => {
    await Promise.all([sqlite.stop(), postgres.stop()]);
  };
}
