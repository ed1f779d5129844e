// The dashboard's figure of `make bench` (bench/README.md, "Dashboard"): the production build
// (pwa/dist) served by the real server binary (SQLite), in Debian's Chromium. A user's workspace holds
// 10,000 assets with 50,000 valuations (gen.ts), written by a clientdb device in Node and synced to
// the browser; then:
//
//   dashboard_ready          ms from the navigation's start (a reload of "/", performance.timeOrigin)
//                            until the net worth is in the page and a frame later the main thread is
//                            free. Median of --runs reloads. Target < 500 ms. On a reload the page
//                            shows the device's last figures of the workspace at once, marked as
//                            being updated (pwa/src/screens/dashboard/snapshot.ts);
//   dashboard_fresh_ready    the same until the net worth recomputed from the device database's
//                            records is shown (data-fresh="true"): opening the database, reading the
//                            records, the worker.
//   dashboard_history_ready  context: the same until the net worth over time (history, changes and
//                            returns, computed in the Web Worker) is shown.
//
// Usage: npx tsx bench/dashboard/dashboardbench.ts [--assets 10000] [--valuations 5] [--runs 5] [--out bench/results-dashboard.json]
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { createOnboardedAccount, storageStateFor } from "../../pwa/e2e/support/accounts";
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from "../../pwa/e2e/support/chromium";
import { REPO_ROOT, startServer } from "../../pwa/e2e/support/server";
import { largePlan } from "./gen";
import { seedRecords } from "./seed";

const TARGET_MS = 500;

const { values: args } = parseArgs({
  options: {
    assets: { type: "string", default: "10000" },
    valuations: { type: "string", default: "5" },
    runs: { type: "string", default: "5" },
    out: { type: "string", default: path.join(REPO_ROOT, "bench", "results-dashboard.json") },
  },
});
const ASSETS = Number(args.assets);
const PER_ASSET = Number(args.valuations);
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
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round1 = (x: number) => Math.round(x * 10) / 10;

/** ms since the navigation started until `selector` is in the page and the frame after it ran. */
async function sinceNavigation(page: Page, selector: string, timeout = 120_000): Promise<number> {
  return page.evaluate(
    ({ selector, timeout }) =>
      new Promise<number>((resolve, reject) => {
        const check = () => {
          if (document.querySelector(selector)) requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
          else if (performance.now() > timeout) reject(new Error(`${selector} did not appear`));
          else requestAnimationFrame(check);
        };
        check();
      }),
    { selector, timeout },
  );
}

async function main() {
  const server = await startServer({ PATRIMONIO_WEB_DIR: process.env.PATRIMONIO_WEB_DIR ?? path.join(REPO_ROOT, "pwa", "dist") });
  const started = new Date();
  try {
    const base = server.url;
    const email = `bench-dashboard-${Date.now()}@example.com`;
    const password = "bench dashboard passphrase 7719 long";
    const account = await createOnboardedAccount(base, email, password);
    const plan = largePlan(ASSETS, PER_ASSET);
    const seed = await seedRecords(base, email, password, plan);
    report({ name: "dashboard_seed", value: round1(seed.ms / 1000), unit: "s", details: `context: ${plan.length} records (${ASSETS} assets, ${ASSETS * PER_ASSET} valuations) created on a Node device and pushed` });

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
    try {
      const context = await browser.newContext({ locale: "es-ES", viewport: { width: 1280, height: 800 }, storageState: storageStateFor(base, account) });
      await context.addInitScript({ content: "globalThis.__name = globalThis.__name || ((f) => f);" });
      const page = await context.newPage();
      page.on("pageerror", (err) => console.error("page error:", err));
      const t0 = Date.now();
      await page.goto(`${base}/`);
      await page
        .locator("[data-testid='sync-status'][data-state='synced']")
        .first()
        .waitFor({ timeout: 1_800_000 })
        .catch(async (err: unknown) => {
          await page.screenshot({ path: path.join(os.tmpdir(), "dashboardbench-failure.png") }).catch(() => undefined);
          throw new Error(`not synced at ${page.url()} (screenshot in ${os.tmpdir()}/dashboardbench-failure.png): ${String(err)}`);
        });
      await page.locator("[data-testid='history-table']").waitFor({ timeout: 1_800_000 });
      report({ name: "dashboard_cold_sync", value: round1((Date.now() - t0) / 1000), unit: "s", details: "context: first open of / until synced and every figure shown" });
      const count = await page.locator("[data-testid='net-worth']").getAttribute("data-value");
      await page.waitForTimeout(2000);

      const ready: number[] = [];
      const fresh: number[] = [];
      const history: number[] = [];
      const marks: Record<string, number>[] = [];
      for (let run = 0; run < RUNS; run++) {
        await page.reload({ waitUntil: "commit" });
        ready.push(await sinceNavigation(page, "[data-testid='net-worth']"));
        fresh.push(await sinceNavigation(page, "[data-testid='net-worth'][data-fresh='true']", 600_000));
        history.push(await sinceNavigation(page, "[data-testid='history-table']", 600_000));
        marks.push(
          await page.evaluate(() => {
            const at: Record<string, number> = {};
            for (const m of performance.getEntriesByType("mark")) at[m.name] = Math.round(m.startTime);
            const paint = performance.getEntriesByName("first-contentful-paint")[0];
            if (paint) at["first-contentful-paint"] = Math.round(paint.startTime);
            return at;
          }),
        );
        await page.waitForTimeout(1000);
      }
      const value = round1(median(ready));
      report({ name: "dashboard_ready", value, unit: "ms", target: `< ${TARGET_MS} ms`, met: value < TARGET_MS, details: { samples: ready.map(round1), netWorth: count, marks } });
      console.log("  marks (ms since navigation):", JSON.stringify(marks));
      report({ name: "dashboard_fresh_ready", value: round1(median(fresh)), unit: "ms", details: { context: "net worth recomputed from the device database's records (database opened, records read, worker)", samples: fresh.map(round1) } });
      report({ name: "dashboard_history_ready", value: round1(median(history)), unit: "ms", details: { context: "history, changes and returns computed in the worker", samples: history.map(round1) } });
      await context.close();
    } finally {
      await browser.close();
    }
  } finally {
    await server.stop();
    let commit = "";
    try {
      commit = execFileSync("git", ["-C", REPO_ROOT, "describe", "--always", "--dirty"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      // not a git checkout
    }
    writeFileSync(args.out, `${JSON.stringify({ date: started.toISOString(), commit, machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() }, assets: ASSETS, valuations: ASSETS * PER_ASSET, runs: RUNS, figures }, null, 2)}\n`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
