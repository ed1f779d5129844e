// Fixtures of sync.spec.ts: the real binary serving the e2e build of the PWA (pwa/e2e/dist: the
// app plus the sync test page; `make test-e2e` builds it), on SQLite and, when a test asks for it,
// on the throwaway Postgres of `make test-e2e`; a fresh onboarded user per test; and "devices":
// browser contexts of that user, each signed in with its own session through the API.
import { existsSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { createOnboardedAccount, storageStateFor, type ApiAccount } from "./accounts";
import { REPO_ROOT, startServer, type RunningServer } from "./server";

/** The e2e build of the PWA (pwa/e2e/sync-page/vite.config.ts). */
export const E2E_WEB_DIR = path.join(REPO_ROOT, "pwa", "e2e", "dist");

const SESSION_COOKIE = "patrimonio_session";

async function startE2eServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(path.join(E2E_WEB_DIR, "e2e", "sync-page", "index.html"))) {
    throw new Error(
      "the e2e build of the PWA is missing: `make test-e2e` builds it " +
        "(npm exec -- vite build -c pwa/e2e/sync-page/vite.config.ts)",
    );
  }
  return startServer({ PATRIMONIO_WEB_DIR: E2E_WEB_DIR, ...env });
}

/** Signs in through the API (POST /auth/signin): a new session, as another device of the user has. */
export async function signInThroughApi(baseURL: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${baseURL}/api/v1/auth/signin`, {
    method: "POST",
    headers: { Origin: baseURL, "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`POST /auth/signin answered ${res.status}: ${await res.text()}`);
  for (const header of res.headers.getSetCookie()) {
    const [pair] = header.split(";");
    const [name, ...value] = (pair ?? "").split("=");
    if (name?.trim() === SESSION_COOKIE) return value.join("=").trim();
  }
  throw new Error("POST /auth/signin set no session cookie");
}

export interface Device {
  context: BrowserContext;
  page: Page;
}

/** Opens devices (browser contexts) of one user on one server; closes them after the test. */
export class Devices {
  readonly #contexts: BrowserContext[] = [];

  constructor(
    readonly browser: Browser,
    readonly baseURL: string,
    readonly account: ApiAccount,
  ) {}

  /** A new device of the user: a browser context signed in with a session of its own. */
  async open(): Promise<Device> {
    const token = await signInThroughApi(this.baseURL, this.account.email, this.account.password);
    const context = await this.browser.newContext({
      baseURL: this.baseURL,
      locale: "es-ES",
      timezoneId: "Europe/Madrid",
      storageState: storageStateFor(this.baseURL, { ...this.account, sessionToken: token }),
    });
    this.#contexts.push(context);
    return { context, page: await context.newPage() };
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#contexts.map((c) => c.close()));
  }
}

let accounts = 0;

/** A fresh onboarded user on `baseURL` (its own empty personal workspace). */
export async function freshAccount(baseURL: string, label: string): Promise<ApiAccount> {
  accounts++;
  const email = `e2e-sync-${label}-${process.pid}-${accounts}-${Date.now()}@example.com`;
  return createOnboardedAccount(baseURL, email, "lengthy e2e sync passphrase 7319");
}

interface WorkerFixtures {
  /** The binary on SQLite serving the e2e build. */
  e2eServer: RunningServer;
  /** The binary on the throwaway Postgres (TEST_DATABASE_URL) serving the e2e build. */
  e2ePgServer: RunningServer;
}

interface TestFixtures {
  /** Devices of a fresh user on the SQLite server. */
  devices: Devices;
  /** Devices of a fresh user on the Postgres server. */
  pgDevices: Devices;
}

export const syncTest = base.extend<TestFixtures, WorkerFixtures>({
  e2eServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const server = await startE2eServer();
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  e2ePgServer: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const databaseURL = process.env.TEST_DATABASE_URL;
      if (!databaseURL) throw new Error("TEST_DATABASE_URL is unset: run through `make test-e2e`");
      const server = await startE2eServer({ DATABASE_URL: databaseURL });
      await use(server);
      await server.stop();
    },
    { scope: "worker" },
  ],
  devices: async ({ browser, e2eServer }, use, testInfo) => {
    const devices = new Devices(browser, e2eServer.url, await freshAccount(e2eServer.url, `sqlite-${testInfo.workerIndex}`));
    await use(devices);
    await devices.closeAll();
  },
  pgDevices: async ({ browser, e2ePgServer }, use, testInfo) => {
    const devices = new Devices(browser, e2ePgServer.url, await freshAccount(e2ePgServer.url, `pg-${testInfo.workerIndex}`));
    await use(devices);
    await devices.closeAll();
  },
});

export { expect };
