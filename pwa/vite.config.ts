import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";
import { VitePWA } from "vite-plugin-pwa";

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

export default defineConfig({
  plugins: [
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
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
      },
      devOptions: { enabled: false },
    }),
    noInlineScripts(),
  ],
  server: { proxy },
  preview: { proxy },
  build: { outDir: "dist", emptyOutDir: true },
});
