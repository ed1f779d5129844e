import { promises as fs } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { localeChunks } from "./src/i18n/localeChunks";

// Where `npm run dev` and `npm run preview` forward /api (HTTP and the sync WebSocket).
// PATRIMONIO_API_URL overrides it, e.g. when the Go server runs on another port.
const apiTarget = process.env.PATRIMONIO_API_URL ?? "http://localhost:8080";

const proxy: Record<string, ProxyOptions> = {
  "/api": { target: apiTarget, ws: true },
};

// Manifest colours: the brand teal for the window chrome, the light app background for the splash.
const BRAND_COLOR = "#0f766e";
const BACKGROUND_COLOR = "#f7f8fa";

/**
 * Fails the build if the final index.html has an inline <script> (one without src): the server's
 * CSP (script-src 'self') would block it. Runs after every other plugin has edited the page.
 */
function noInlineScripts(): Plugin {
  return {
    name: "patrimonio:no-inline-scripts",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html) {
        const inline = html.match(/<script\b(?![^>]*\bsrc=)[^>]*>/gi);
        if (inline) throw new Error(`index.html has inline scripts, which the CSP blocks: ${inline.join(", ")}`);
        return html;
      },
    },
  };
}

/**
 * Starts zod "jitless" in the built app. zod 4 probes `new Function` when it builds its first object
 * schema; the CSP (script-src 'self') blocks the probe and Chromium records a CSP violation on every
 * page load. src/zodConfig.ts says `config({ jitless: true })` first thing in main.tsx, which is
 * enough while modules run in source order (vite dev, tests), but the production build hoists the
 * schemas of shared chunks above the entry's own code, so they are built before that call. zod
 * keeps its settings in `globalThis.__zod_globalConfig`: seeding it where zod's core module starts
 * makes every schema see `jitless` whatever the chunk order. Same validation, no eval.
 */
function zodJitless(): Plugin {
  const core = /[\\/]node_modules[\\/]zod[\\/]v4[\\/]core[\\/]core\.js$/;
  return {
    name: "patrimonio:zod-jitless",
    apply: "build",
    transform(code, id) {
      if (!core.test(id)) return null;
      if (!code.includes("__zod_globalConfig")) {
        this.error("zod's core no longer keeps its settings in globalThis.__zod_globalConfig: update zodJitless in vite.config.ts");
      }
      return { code: `(globalThis.__zod_globalConfig ??= {}).jitless = true;\n${code}`, map: null };
    },
  };
}

// The kit's components that do not use Radix (code splitting groups them into one file).
const LIGHT_KIT =
  /pwa[\\/]src[\\/]ui[\\/](?:Alert|Badge|Card|CodeInput|EmptyState|Field|Heading|NativeSelect|PageHeader|SearchInput|Skeleton|Spinner|Stepper|TextArea|TextInput|Input|form)\b[^\\/]*$/;

// The shared schema's modules without zod: the values the dashboard uses (grouped), and the texts of
// its messages (both languages, loaded with a form's errors, left to automatic chunking).
const SCHEMA_SRC = /shared-schema[\\/]src[\\/]/;
const SCHEMA_VALUES = /shared-schema[\\/]src[\\/](?:values|limits|constants|enums|rules)\.ts$/;
const SCHEMA_MESSAGES = /shared-schema[\\/]src[\\/]messages\.ts$/;
const zodFreeSchema = (id: string) => SCHEMA_VALUES.test(id) || SCHEMA_MESSAGES.test(id);

// A signed-in page's frame: the app shell (sidebar, top bar, workspace switcher, sync indicator), the
// device database's context and live-query hooks, and the dashboard (the first page after sign-in).
// Every signed-in route needs all of it before its first render; as separate files it was 18
// scripts and 4 style sheets requested in two rounds.
const FRAME =
  /(?:pwa[\\/]src[\\/](?:shell[\\/](?:AppShell|Sidebar|TopBar|WorkspaceSwitcher|useMediaQuery)\.|workspace[\\/]|screens[\\/]workspaces[\\/](?:RoleBadge|SwitcherActions)\.|sync[\\/](?:DeviceSync|engineContext|names|SyncStatus)\.|i18n[\\/]useFormatters\.|assets[\\/]hooks\.|screens[\\/]DashboardScreen\.|screens[\\/]dashboard[\\/](?:DashboardScreen|Notices|snapshot|baseCurrency|Dashboard\.module)\.)|clientdb[\\/]src[\\/]context\.ts$)/;

// Where the content-hashed files go, served with a one-year immutable cache (server/httpapi/web.go,
// assetsDir). Not "assets": the spec's asset screens live under /assets/.
const ASSETS_DIR = "_app";

// Text files worth compressing; smaller files gain too little to be worth a second lookup.
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const COMPRESS_MIN_BYTES = 1024;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes NAME.br (brotli, quality 11) and NAME.gz (gzip -9) beside every compressible file of the
 * build, once every other plugin has written its files (the service worker included). The server
 * sends them by Accept-Encoding; the originals stay for clients that take neither.
 */
function precompress(): Plugin {
  let outDir = "";
  return {
    name: "patrimonio:precompress",
    apply: "build",
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: "post",
      sequential: true,
      async handler(error?: Error) {
        if (error) return;
        const entries = await fs.readdir(outDir, { recursive: true, withFileTypes: true });
        await Promise.all(
          entries
            .filter((e) => e.isFile() && COMPRESSIBLE.test(e.name))
            .map(async (e) => {
              const file = path.join(e.parentPath, e.name);
              const plain = await fs.readFile(file);
              if (plain.length < COMPRESS_MIN_BYTES) return;
              const [br, gz] = await Promise.all([
                brotli(plain, {
                  params: {
                    [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
                  },
                }),
                gzip(plain, { level: zlib.constants.Z_BEST_COMPRESSION }),
              ]);
              if (br.length < plain.length) await fs.writeFile(`${file}.br`, br);
              if (gz.length < plain.length) await fs.writeFile(`${file}.gz`, gz);
            }),
        );
      },
    },
  };
}

export default defineConfig({
  plugins: [
    zodJitless(),
    // locales/<language>.json cut into a core chunk and one lazy chunk per top-level section (src/i18n/localeChunks.ts).
    localeChunks({
      dir: path.resolve(import.meta.dirname, "src/i18n/locales"),
      // The shared schema's messages load with the core texts (src/i18n/loading.ts): preloaded with them.
      preloadWith: (language) => [`shared-schema/messages/${language}.json`],
    }),
    react(),
    VitePWA({
      strategies: "generateSW",
      // 'prompt': a new service worker waits until the user accepts the "new version" toast.
      registerType: "prompt",
      // The server's CSP forbids inline scripts, so nothing is injected into index.html:
      // src/pwa/UpdatePrompt.tsx registers the worker through virtual:pwa-register/react.
      injectRegister: false,
      // The glob below already precaches the icons; listing them twice would only add duplicates.
      includeManifestIcons: false,
      manifest: {
        id: "/",
        name: "Patrimonio",
        short_name: "Patrimonio",
        description:
          "Consolida tus activos, pasivos, beneficiarios e instrucciones de legado, también sin conexión.",
        lang: "es-ES",
        dir: "ltr",
        start_url: "/",
        scope: "/",
        display: "standalone",
        theme_color: BRAND_COLOR,
        background_color: BACKGROUND_COLOR,
        categories: ["finance", "productivity"],
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
          { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      workbox: {
        // The whole app shell: hashed bundles, index.html, theme-init.js and the icons
        // (the plugin adds manifest.webmanifest itself).
        globPatterns: ["**/*.{js,css,html,png,ico,svg}"],
        navigateFallback: "index.html",
        // The API and the hashed files are never the app: the server answers them (a JSON or plain 404).
        navigateFallbackDenylist: [/^\/api\//, new RegExp(`^/${ASSETS_DIR}/`)],
        cleanupOutdatedCaches: true,
      },
      devOptions: { enabled: false },
    }),
    noInlineScripts(),
    precompress(),
  ],
  server: { proxy },
  preview: { proxy },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsDir: ASSETS_DIR,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Every module the entry imports statically (React, the router, i18n, the layouts ...) in
          // ONE chunk: the automatic chunking cut them into ~22 small shared chunks, all needed
          // before the first render, and on a phone's network each costs a request (Lighthouse,
          // slow 4G: first paint 3.3 s with them, 2.5 s without). Lazy routes keep their chunks.
          //
          // Lazy code shared by several routes is grouped too, or a route's first visit fetches dozens
          // of 1 KB files (one per icon, per kit component, per schema module). Over HTTP/1.1 (6
          // connections, the local server and any proxy without h2) each costs a round trip: the
          // dashboard's first load asked for 45 scripts. The groups are chosen by what they weigh:
          // - every icon in one file (a few KB; any screen uses several);
          // - the kit's components without Radix (Badge, Card, Field, …; the Radix ones stay with
          //   the screens that use them, they are heavier);
          // - the zod-free values of the shared schema (constants, limits, patterns, enum lists),
          //   which the dashboard needs, apart from zod and the schemas, which it must not load
          //   (issue 8's budget);
          // - zod and the schemas, in one file, for the screens with forms.
          groups: [
            { name: "app", tags: ["$initial"] },
            { name: "icons", test: /node_modules[\\/]lucide-react[\\/]/ },
            { name: "kit", test: LIGHT_KIT },
            { name: "frame", test: FRAME },
            { name: "schema-values", test: (id) => SCHEMA_VALUES.test(id) },
            { name: "schema", test: (id) => /node_modules[\\/]zod[\\/]/.test(id) || (SCHEMA_SRC.test(id) && !zodFreeSchema(id)) },
          ],
        },
      },
    },
  },
});
