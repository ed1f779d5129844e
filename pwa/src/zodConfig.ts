// Imported first by every browser entry point (pwa/src/main.tsx, the e2e pages): zod 4 probes
// whether it may compile parsers with `new Function` the first time an object schema parses. The
// CSP (script-src 'self', no 'unsafe-eval') blocks that probe, and Chromium records a CSP violation
// for every page load (Lighthouse "best practices"). Without eval zod uses its interpreter anyway,
// so telling it up front changes no result and leaves no violation.
import { config } from "zod";

config({ jitless: true });
