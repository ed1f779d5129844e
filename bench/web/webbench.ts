// The browser figures of `make bench` (bench/README.md, "Web"): the production build (pwa/dist)
// served by the real server binary (bin/patrimonio), measured in Debian's Chromium.
//
//   initial_js_signin, initial_js_dashboard   KB (1,000 bytes) of JavaScript, gzip-encoded as the
//       server sends it to a browser that accepts gzip, that a fresh browser (empty cache, no
//       service worker) downloads to render /signin signed out and / signed in with onboarding
//       done: every script response of the page until it is rendered and the network is quiet.
//       The brotli figure (what Chromium really receives, it accepts br) is printed as context.
//   lighthouse_mobile_{perf,a11y,best_practices}_{signin,dashboard}   Lighthouse 12 scores (0-100),
//       default mobile profile (Moto G Power emulation, simulated slow 4G and 4x CPU slowdown), the
//       median of --runs runs. http://localhost counts as a secure origin for Lighthouse.
//
// Usage: npx tsx bench/web/webbench.ts [--runs 3] [--out bench/results-web.json] [--only js|lighthouse]
//        [--pages signin,dashboard]
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), PATRIMONIO_WEB_DIR (default pwa/dist).
// Lighthouse's full reports are written to test-results/lighthouse/<page>-<run>.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium, type Browser, type Page } from "playwright-core";
import { createOnboardedAccount, storageStateFor } from "../../pwa/e2e/support/accounts";
import { CHROMIUM_ARGS, CHROMIUM_PATH as CHROMIUM } from "../../pwa/e2e/support/chromium";
import { REPO_ROOT, startServer } from "../../pwa/e2e/support/server";

const INITIAL_JS_TARGET_KB = 250;
const LIGHTHOUSE_TARGETS = { perf: 90, a11y: 100, best_practices: 100 } as const;

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    out: { type: "string", default: path.join(REPO_ROOT, "bench", "results-web.json") },
    only: { type: "string" },
    // Which pages to measure (comma-separated): signin, dashboard.
    pages: { type: "string", default: "signin,dashboard" },
  },
});
const runs = Math.max(1, Number(args.runs));

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

/** The size of the body the server sends for url to a client that accepts only `encoding`. */
function encodedSize(url: string, encoding: string): Promise<{ bytes: number; encoding: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { "Accept-Encoding": encoding } }, (res) => {
        let bytes = 0;
        res.on("data", (chunk: Buffer) => (bytes += chunk.length));
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`GET ${url} answered ${res.statusCode}`));
          else resolve({ bytes, encoding: res.headers["content-encoding"] ?? "identity" });
        });
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const kb = (bytes: number) => Math.round(bytes / 100) / 10;

/**
 * Opens path in a fresh context (empty cache, service workers blocked so that the precache does not
 * count) and returns every script the page downloaded until `ready` and a quiet network.
 */
async function scriptsOfPage(
  browser: Browser,
  baseURL: string,
  pagePath: string,
  ready: (page: Page) => Promise<void>,
  storageState?: ReturnType<typeof storageStateFor>,
) {
  const context = await browser.newContext({ serviceWorkers: "block", locale: "es-ES", ...(storageState ? { storageState } : {}) });
  const page = await context.newPage();
  const scripts = new Map<string, number>();
  const pending: Promise<void>[] = [];
  page.on("requestfinished", (req) => {
    if (req.resourceType() !== "script") return;
    pending.push(req.sizes().then((s) => void scripts.set(req.url(), s.responseBodySize)));
  });
  await page.goto(baseURL + pagePath);
  await ready(page);
  await page.waitForLoadState("networkidle");
  await Promise.all(pending);
  const finalPath = new URL(page.url()).pathname;
  await context.close();
  if (finalPath !== pagePath) throw new Error(`${pagePath} ended on ${finalPath}: the page under test did not render`);
  return scripts;
}

async function initialJS(browser: Browser, baseURL: string, name: string, pagePath: string, ready: (page: Page) => Promise<void>, storageState?: ReturnType<typeof storageStateFor>) {
  const scripts = await scriptsOfPage(browser, baseURL, pagePath, ready, storageState);
  let gzip = 0;
  let received = 0;
  const files: { url: string; gzip: number; received: number }[] = [];
  for (const [url, size] of scripts) {
    const gz = await encodedSize(url, "gzip");
    gzip += gz.bytes;
    received += size;
    files.push({ url: new URL(url).pathname, gzip: gz.bytes, received: size });
  }
  report({
    name: `initial_js_${name}`,
    value: kb(gzip),
    unit: "KB",
    target: `<= ${INITIAL_JS_TARGET_KB} KB gzip`,
    met: kb(gzip) <= INITIAL_JS_TARGET_KB,
    details: { files },
  });
  report({ name: `initial_js_${name}_received`, value: kb(received), unit: "KB", details: "context: the bytes Chromium received (brotli)" });
  console.log(files.map((f) => `    ${f.url}  gzip ${kb(f.gzip)} KB, received ${kb(f.received)} KB`).join("\n"));
}

interface LighthouseScores {
  perf: number;
  a11y: number;
  best_practices: number;
}

interface LighthouseRun extends LighthouseScores {
  benchmarkIndex: number;
  metrics: Record<string, number | undefined>;
  failing: string[];
}

async function lighthouseRun(url: string, label: string, extraHeaders?: Record<string, string>): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
    logLevel: "silent",
  });
  try {
    const result = await lighthouse(
      url,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: ["performance", "accessibility", "best-practices"],
        ...(extraHeaders ? { extraHeaders } : {}),
      },
      undefined,
    );
    if (!result) throw new Error(`lighthouse gave no result for ${url}`);
    const lhr = result.lhr;
    const dir = path.join(REPO_ROOT, "test-results", "lighthouse");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, `${label}.json`), typeof result.report === "string" ? result.report : JSON.stringify(lhr));
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
      throw new Error(`lighthouse ended on ${lhr.finalDisplayedUrl}, not ${url}`);
    }
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    // The audits that cost points, for the log: id and score.
    const failing = Object.values(lhr.categories)
      .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]))
      .filter((a): a is NonNullable<typeof a> => !!a && a.score !== null && a.score < 1)
      .map((a) => `${a.id}=${a.score}${a.displayValue ? ` (${a.displayValue})` : ""}`);
    const metricIds = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"];
    const shown = metricIds.map((id) => `${id.replace(/-/g, "_")}=${lhr.audits[id]?.displayValue ?? "?"}`).join(" ");
    console.log(`    ${label}: perf ${score("performance")} a11y ${score("accessibility")} bp ${score("best-practices")}; ${shown}; benchmarkIndex ${lhr.environment.benchmarkIndex}`);
    if (failing.length) console.log(`      costing points: ${failing.join(", ")}`);
    return {
      perf: score("performance"),
      a11y: score("accessibility"),
      best_practices: score("best-practices"),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      metrics: Object.fromEntries(metricIds.map((id) => [id, lhr.audits[id]?.numericValue])),
      failing,
    };
  } finally {
    chrome.kill();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)] ?? 0;
};

async function lighthousePage(name: string, url: string, extraHeaders?: Record<string, string>) {
  const results: LighthouseRun[] = [];
  for (let i = 1; i <= runs; i++) results.push(await lighthouseRun(url, `${name}-${i}`, extraHeaders));
  for (const key of ["perf", "a11y", "best_practices"] as const) {
    const value = median(results.map((r) => r[key]));
    report({
      name: `lighthouse_mobile_${key}_${name}`,
      value,
      unit: "score",
      target: `>= ${LIGHTHOUSE_TARGETS[key]}`,
      met: value >= LIGHTHOUSE_TARGETS[key],
      details: { runs: results.map((r) => ({ score: r[key], benchmarkIndex: r.benchmarkIndex, metrics: r.metrics, failing: r.failing })) },
    });
  }
}

async function main() {
  const webDir = process.env.PATRIMONIO_WEB_DIR ?? path.join(REPO_ROOT, "pwa", "dist");
  const server = await startServer({ PATRIMONIO_WEB_DIR: webDir });
  const started = new Date();
  try {
    const base = server.url;
    // The sign-in page is ready with its form; the dashboard with the heading of the app shell's main.
    const signinReady = (page: Page) => page.locator("input[type=password]").first().waitFor();
    const dashboardReady = (page: Page) => page.locator("main h1").first().waitFor();
    const js = args.only !== "lighthouse";
    const lh = args.only !== "js";

    // Signed out first, then a user signed up through the API (onboarding done) for the dashboard.
    const browser = js ? await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true }) : null;
    try {
      const pages = new Set(args.pages.split(","));
      if (browser && pages.has("signin")) await initialJS(browser, base, "signin", "/signin", signinReady);
      if (lh && pages.has("signin")) await lighthousePage("signin", `${base}/signin`);
      const account = await createOnboardedAccount(base, `bench-web-${Date.now()}@example.com`, "bench web passphrase 4417 long");
      if (browser && pages.has("dashboard")) await initialJS(browser, base, "dashboard", "/", dashboardReady, storageStateFor(base, account));
      if (lh && pages.has("dashboard")) await lighthousePage("dashboard", `${base}/`, { Cookie: `patrimonio_session=${account.sessionToken}` });
    } finally {
      await browser?.close();
    }
  } finally {
    await server.stop();
    // The figures measured so far, also when a later measurement failed.
    writeResults(started, webDir);
  }
}

function writeResults(started: Date, webDir: string) {
  let commit = "";
  try {
    commit = execFileSync("git", ["-C", REPO_ROOT, "describe", "--always", "--dirty"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    // not a git checkout
  }
  writeFileSync(
    args.out,
    `${JSON.stringify(
      {
        date: started.toISOString(),
        commit,
        machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadavg: os.loadavg() },
        webDir,
        figures,
      },
      null,
      2,
    )}\n`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
