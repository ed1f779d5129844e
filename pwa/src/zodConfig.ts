// Imported first by every browser entry point (pwa/src/main.tsx, the e2e pages): zod 4 probes
// whether it may compile parsers with `new Function` the first time an object schema parses. The
// CSP (script-src 'self', no 'unsafe-eval') blocks that probe, and Chromium records a CSP violation
// for every page load (Lighthouse "best practices"). Without eval zod uses its interpreter anyway,
// so telling it up front changes no result and leaves no violation.
//
// zod keeps its configuration on globalThis.__zod_globalConfig (so that copies of zod share it) and
// adopts an object already there (zod/v4/core/core.js). Setting it here, instead of calling zod's `config()`, keeps zod
// out of the first download: only the screens with forms load it (issue 8's initial-JS budget).
// zodConfig.test.ts checks that zod still reads it from there.
const holder = globalThis as { __zod_globalConfig?: Record<string, unknown> };
// Changed in place when zod is already loaded (tests): zod holds on to the object it adopted.
(holder.__zod_globalConfig ??= {}).jitless = true;

export {};
