// Debian's Chromium (never a downloaded browser) and the flags every run of it uses: the e2e tests
// (playwright.config.ts) and the browser benchmarks (bench/web, bench/assets, bench/dashboard).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
