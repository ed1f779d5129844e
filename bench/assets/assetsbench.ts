// The asset list's figures of `make bench` (bench/README.md, "Asset list"): the production build
// (pwa/dist) served by the real server binary (bin/patrimonio, SQLite), measured in Debian's Chromium.
// A user's workspace holds 10,000 assets in 40 legal structures, written by a clientdb device in
// Node and synced to the browser (seed.ts); then, in the browser:
//
//   assets_list_ready   ms from the click on the sidebar's "Asset list" (on the dashboard, the device
//                       database open and synced) until the list's rows are in the page and the main
//                       thread is free again (a task after the frame that shows them). Median of
//                       --runs navigations; the first (route code not loaded yet) is reported apart.
//   assets_search       ms from a keystroke in the search box (the keydown event's time) until the
//                       table shows the rows for the new text and the frame after it ran. Median over
//                       every keystroke of a few searches typed one key at a time.
//   asset_create        ms from the create command (the app's own ClientDb instance, the same command
//                       path the add form uses) until the new asset's row is in the list and the
//                       frame after it ran. The list is filtered by the new name first, so the row is
//                       in view (the list is virtualised). Median of --runs creations.
//
// Usage: npx tsx bench/assets/assetsbench.ts [--assets 10000] [--structures 40] [--runs 7] [--out bench/results-assets.json]
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { createOnboardedAccount, storageStateFor } from "../../pwa/e2e/support/accounts";
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from "../../pwa/e2e/support/chromium";
import { REPO_ROOT, startServer } from "../../pwa/e2e/support/server";
import { generateAssets, generateStructures, seedWorkspace } from "./seed";

const TARGETS = { assets_list_ready: 300, assets_search: 50, asset_create: 50 } as const;

const { values: args } = parseArgs({
  options: {
    assets: { type: "string", default: "10000" },
    structures: { type: "string", default: "40" },
    runs: { type: "string", default: "7" },
    out: { type: "string", default: path.join(REPO_ROOT, "bench", "results-assets.json") },
  },
});
const ASSETS = Number(args.assets);
const STRUCTURES = Number(args.structures);
const RUNS = Math.max(1, Number(args.runs));

interface Figure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  met?: boolean;
  details?: unknown;
}
const figures: Figure[] = [];

function report(f: Figure) {
  figures.push(f);
  const target = f.target ? `   (target ${f.target}: ${f.met ? "met" : "NOT met"})` : "";
  console.log(`BENCH ${f.name} ${f.value} ${f.unit}${target}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
const round1 = (x: number) => Math.round(x * 10) / 10;

function timed(name: keyof typeof TARGETS, samples: number[], extra: Record<string, unknown> = {}) {
  const value = round1(median(samples));
  report({
    name,
    value,
    unit: "ms",
    target: `< ${TARGETS[name]} ms`,
    met: value < TARGETS[name],
    details: { samples: samples.map(round1), ...extra },
  });
}

/** Waits until the list shows `rows` assets (data-rows of the table) for the search text `query`. */
async function listShows(page: Page, rows: number, query = "", timeout = 120_000) {
  await page.waitForFunction(
    ({ rows, query }) => {
      const table = document.querySelector("[data-testid='asset-table']");
      return table?.getAttribute("data-rows") === String(rows) && table.getAttribute("data-query") === query;
    },
    { rows, query },
    { timeout, polling: 50 },
  );
}

/** Clicks a link of the page and resolves with the ms until `selector` is in the page and a task after
 * the following frame has run (the main thread free: the rows can take a click). */
async function clickUntil(page: Page, linkSelector: string, selector: string): Promise<number> {
  return page.evaluate(
    ({ linkSelector, selector }) =>
      new Promise<number>((resolve, reject) => {
        const link = document.querySelector<HTMLElement>(linkSelector);
        if (!link) return reject(new Error(`no ${linkSelector}`));
        const t0 = performance.now();
        link.click();
        const deadline = t0 + 30_000;
        const check = () => {
          if (document.querySelector(selector)) {
            requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
          } else if (performance.now() > deadline) {
            reject(new Error(`${selector} did not appear`));
          } else {
            requestAnimationFrame(check);
          }
        };
        check();
      }),
    { linkSelector, selector },
  );
}

const ASSETS_LINK = "nav a[href='/assets'], nav a[href='/assets/']";
const HOME_LINK = "nav a[href='/']";

async function measureListReady(page: Page): Promise<{ first: number; samples: number[] }> {
  const samples: number[] = [];
  let first = Number.NaN;
  for (let run = 0; run <= RUNS; run++) {
    await page.locator(HOME_LINK).first().click();
    await page.locator("main h1").first().waitFor();
    await page.waitForTimeout(300);
    const ms = await clickUntil(page, ASSETS_LINK, "[data-testid='asset-row']");
    if (run === 0) first = ms;
    else samples.push(ms);
  }
  return { first, samples };
}

/** Installs the keystroke timer: each keydown in the search box starts a measure that ends in the
 * frame after the table shows that text (data-query). Results in window.__searchTimes. */
async function installSearchTimer(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __searchTimes: number[] };
    w.__searchTimes = [];
    const input = document.querySelector<HTMLInputElement>("[data-testid='asset-search']")!;
    input.addEventListener(
      "keydown",
      (event) => {
        const start = event.timeStamp;
        const wait = () => {
          const table = document.querySelector("[data-testid='asset-table']");
          const none = document.querySelector("[data-testid='asset-no-results']");
          const shown = table?.getAttribute("data-query") ?? (none ? input.value : null);
          if (shown === input.value && input.value !== "" && shown !== null) {
            requestAnimationFrame(() => setTimeout(() => w.__searchTimes.push(performance.now() - start), 0));
          } else {
            requestAnimationFrame(wait);
          }
        };
        // The input's value changes after keydown: start looking once it did.
        setTimeout(wait, 0);
      },
      { capture: true },
    );
  });
}

async function measureSearch(page: Page): Promise<number[]> {
  const search = page.getByTestId("asset-search");
  await installSearchTimer(page);
  const words = ["inversion", "madrid 00", "bbva cuenta", "oro"];
  for (const word of words) {
    await search.fill("");
    await listShows(page, ASSETS);
    await search.focus();
    for (const key of word) {
      const before = await page.evaluate(() => (window as unknown as { __searchTimes: number[] }).__searchTimes.length);
      await page.keyboard.press(key === " " ? "Space" : key);
      await page.waitForFunction((n) => (window as unknown as { __searchTimes: number[] }).__searchTimes.length > n, before, { timeout: 30_000 });
    }
  }
  const times = await page.evaluate(() => (window as unknown as { __searchTimes: number[] }).__searchTimes);
  await search.fill("");
  return times;
}

/**
 * Creates assets through the app's own ClientDb (found on the React provider above the app shell:
 * the very instance the screens and the add form use) while the list is filtered by the new name,
 * and times each command until its row is in the list and the next frame ran.
 */
async function measureCreate(page: Page, workspaceId: string): Promise<number[]> {
  const samples: number[] = [];
  const search = page.getByTestId("asset-search");
  for (let run = 0; run < RUNS; run++) {
    const name = `Nuevo activo de prueba ${run}`;
    await search.fill(name);
    await page.getByTestId("asset-no-results").waitFor({ timeout: 30_000 });
    const ms = await page.evaluate(
      ({ name, workspaceId }) =>
        new Promise<number>((resolve, reject) => {
          // React's fiber of the shell's root element; its ancestors include ClientDbProvider({ db }).
          const shell = document.querySelector("[data-testid='app-shell']");
          if (!shell) return reject(new Error("no app shell"));
          const key = Object.keys(shell).find((k) => k.startsWith("__reactFiber$"));
          type Fiber = { return: Fiber | null; memoizedProps?: { db?: unknown } };
          let fiber = key ? ((shell as unknown as Record<string, Fiber>)[key] ?? null) : null;
          let db: { create(c: string, w: string, f: unknown): Promise<{ ok: boolean }> } | undefined;
          while (fiber) {
            const candidate = fiber.memoizedProps?.db as typeof db;
            if (candidate && typeof candidate.create === "function") {
              db = candidate;
              break;
            }
            fiber = fiber.return;
          }
          if (!db) return reject(new Error("the app's device database was not found"));
          const fields = {
            name,
            assetClass: "real_estate",
            category: "residential",
            currency: "EUR",
            participation: "100",
            currentValue: "325000.55",
            valuationDate: "2026-11-01",
          };
          const t0 = performance.now();
          const wait = () => {
            const row = [...document.querySelectorAll("[data-testid='asset-name']")].find((el) => el.textContent === name);
            if (row) requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
            else if (performance.now() - t0 > 30_000) reject(new Error("the new row did not appear"));
            else requestAnimationFrame(wait);
          };
          db.create("assets", workspaceId, fields).then((result) => {
            if (!result.ok) reject(new Error(`create refused: ${JSON.stringify(result)}`));
          }, reject);
          wait();
        }),
      { name, workspaceId },
    );
    samples.push(ms);
  }
  await search.fill("");
  return samples;
}

async function main() {
  const server = await startServer({ PATRIMONIO_WEB_DIR: process.env.PATRIMONIO_WEB_DIR ?? path.join(REPO_ROOT, "pwa", "dist") });
  const started = new Date();
  try {
    const base = server.url;
    const email = `bench-assets-${Date.now()}@example.com`;
    const password = "bench assets passphrase 5521 long";
    const account = await createOnboardedAccount(base, email, password);

    const seed = await seedWorkspace(base, email, password, (structureIds) => ({ assets: generateAssets(ASSETS, structureIds) }), generateStructures(STRUCTURES));
    report({ name: "assets_seed", value: round1(seed.ms / 1000), unit: "s", details: `context: ${ASSETS} assets and ${STRUCTURES} structures created on a Node device and pushed` });

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    try {
      const context = await browser.newContext({ locale: "es-ES", viewport: { width: 1280, height: 800 }, storageState: storageStateFor(base, account) });
      // tsx compiles this file with esbuild's keepNames: functions passed to page.evaluate call its
      // __name helper, which the page must have.
      await context.addInitScript({ content: "globalThis.__name = globalThis.__name || ((f) => f);" });
      const page = await context.newPage();
      page.on("pageerror", (err) => console.error("page error:", err));
      // First visit: the browser's device database receives the workspace by sync (cold sync).
      const t0 = Date.now();
      await page.goto(`${base}/assets/`);
      await listShows(page, ASSETS, "", 300_000);
      report({ name: "assets_cold_sync_to_list", value: round1((Date.now() - t0) / 1000), unit: "s", details: "context: first open of /assets/ until the list shows every asset (page load, database open, sync of the workspace)" });

      // Measure a settled device: synced (nothing in flight), then a moment for its last writes.
      await page.locator("[data-testid='sync-status'][data-state='synced']").first().waitFor({ timeout: 120_000 });
      await page.waitForTimeout(2000);

      const ready = await measureListReady(page);
      report({ name: "assets_list_ready_first", value: round1(ready.first), unit: "ms", details: "context: the first navigation (the list's code loaded on the way)" });
      timed("assets_list_ready", ready.samples);

      await listShows(page, ASSETS);
      const searchTimes = await measureSearch(page);
      timed("assets_search", searchTimes);

      const createTimes = await measureCreate(page, seed.workspaceId);
      timed("asset_create", createTimes);
      await context.close();
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
    writeResults(started);
  }
}

function writeResults(started: Date) {
  let commit = "";
  try {
    commit = execFileSync("git", ["-C", REPO_ROOT, "describe", "--always", "--dirty"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // not a git checkout
  }
  const result = { date: started.toISOString(), commit, machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() }, assets: ASSETS, structures: STRUCTURES, runs: RUNS, figures };
  writeFileSync(args.out, `${JSON.stringify(result, null, 2)}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
