import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./support/chromium";

// End-to-end tests: Debian's Chromium (never a downloaded browser) against the real server binary,
// started by global-setup.ts on free ports (one instance on SQLite, one on Postgres).

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  globalSetup: "./global-setup.ts",
  // One worker. Two (each with servers and a user of its own: tried in session 17) passed the whole
  // run in 13.5 minutes against 16-17, but every test took 1.3-2.1 times as long on the two cores
  // (load average 10-13), too close to the waits' bounds below to be worth three minutes.
  fullyParallel: false,
  workers: 1,
  // A trace is recorded only when a test is run again after failing, never on a first attempt:
  // the whole run took 16.8 minutes here without traces, against 17.9 with one on every attempt
  // (session 15's clean-clone run). The run still fails whenever a first attempt fails: a test that
  // passes only on its retry counts as flaky, and flaky fails the run.
  retries: 1,
  failOnFlakyTests: true,
  // Upper bounds for waiting, never speed goals (those live in `make bench`): CI runs on 2 busy
  // cores, where Playwright's defaults (30 s a test, 5 s an expectation) cut slow but correct runs.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [["list"]],
  outputDir: "../../test-results",
  use: {
    headless: true,
    locale: "es-ES",
    timezoneId: "Europe/Madrid",
    // Traces used to be recorded on every attempt, and hid two things that hung the flows and tasks
    // tests without them: a tab behind the test page's ran at one frame a second (SyncTestPage.beside
    // brings it to the front), and a step ran while a Select was still handing focus back to its
    // button (support/pickers.ts waits for that).
    trace: "on-first-retry",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: "chromium" }],
});
