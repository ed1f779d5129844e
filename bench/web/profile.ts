// Where a first load's main-thread time goes, for work on the Lighthouse figures (bench/README.md,
// "Web"): opens / signed in (onboarding done) or /signin in Debian's Chromium with Lighthouse's 4x
// CPU slowdown, and prints the paints (LCP candidates), the long tasks, when each request started
// and ended, and the functions with the most self time (a V8 CPU profile, also written to
// test-results/profile-<page>.cpuprofile for Chrome DevTools). Timings are the machine's: compare
// builds in alternating runs.
//
// Usage: npx tsx bench/web/profile.ts [--page dashboard|signin] [--rate 4] [--top 25]
// Environment: PATRIMONIO_WEB_DIR (default pwa/dist; `npx vite build --minify false --outDir DIR`
// in pwa/ gives readable names), CHROMIUM_PATH.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "playwright-core";
import { createOnboardedAccount, storageStateFor } from "../../pwa/e2e/support/accounts";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../../pwa/e2e/support/chromium";
import { REPO_ROOT, startServer } from "../../pwa/e2e/support/server";

const { values: args } = parseArgs({
  options: { page: { type: "string", default: "dashboard" }, rate: { type: "string", default: "4" }, top: { type: "string", default: "25" } },
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const server = await startServer({ PATRIMONIO_WEB_DIR: process.env.PATRIMONIO_WEB_DIR ?? path.join(REPO_ROOT, "pwa", "dist") });
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
try {
  const signedIn = args.page === "dashboard";
  const account = signedIn ? await createOnboardedAccount(server.url, `profile-${Date.now()}@example.com`, "profile passphrase 4417 long") : undefined;
  const context = await browser.newContext({
    serviceWorkers: "block",
    locale: "es-ES",
    viewport: { width: 412, height: 823 },
    ...(account ? { storageState: storageStateFor(server.url, account) } : {}),
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: Number(args.rate) });
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await page.addInitScript(() => {
    const w = window as unknown as Record<string, unknown[]>;
    w.__lcp = [];
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__lcp!.push([Math.round(e.startTime), (e as unknown as { element?: Element }).element?.textContent?.slice(0, 40) ?? ""]);
    }).observe({ type: "largest-contentful-paint", buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long!.push([Math.round(e.startTime), Math.round(e.duration)]);
    }).observe({ type: "longtask", buffered: true });
  });
  await cdp.send("Profiler.start");
  await page.goto(server.url + (signedIn ? "/" : "/signin"));
  await (signedIn ? page.locator("[data-testid=legal-notices]") : page.locator("input[type=password]")).first().waitFor();
  await page.waitForTimeout(2000);
  const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
  const seen = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown[]>;
    return {
      lcp: w.__lcp,
      long: w.__long,
      requests: performance.getEntriesByType("resource").map((r) => [r.name.replace(location.origin, ""), Math.round(r.startTime), Math.round((r as PerformanceResourceTiming).responseEnd)]),
    };
  });
  console.log("LCP candidates [ms, text]:", JSON.stringify(seen.lcp));
  console.log("long tasks [start, ms]:", JSON.stringify(seen.long));
  console.log("requests [path, start, end]:");
  for (const r of seen.requests) console.log("   ", (r as unknown[]).join(" "));

  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  console.log(`self time (ms, ${args.rate}x slowdown):`);
  for (const [k, v] of [...self].filter(([k]) => !k.startsWith("(idle)")).sort((a, b) => b[1] - a[1]).slice(0, Number(args.top))) {
    console.log(`  ${(v / 1000).toFixed(0).padStart(5)} ${k}`);
  }
  const dir = path.join(REPO_ROOT, "test-results");
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `profile-${args.page}.cpuprofile`), JSON.stringify(profile));
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}
