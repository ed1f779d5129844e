// Build-time split of the locale files (a Vite plugin; runs in Node, imported by vite.config.ts and
// vitest.config.ts). The source of truth stays ONE file per language (locales/es.json, en.json):
// this plugin cuts each into
//   - a "core" module: the top-level sections of CORE_SECTIONS (sections.ts), the texts the app needs
//     on every page (shell, sign-in, errors, dialogs that open anywhere), loaded before the first render;
//   - one module per remaining top-level section, each its own lazily loaded chunk.
// A top-level section someone adds to the files is automatically its own lazy chunk: nothing to list.
// The app reaches them through the virtual module "virtual:locale-chunks" (loading.ts):
//   export const LAZY_SECTIONS: string[];  export const LOADERS: { es: { core, sections: { name: () => import(...) } }, en: ... }
// Each module's default export is a partial translation object ({ dashboard: {...} }) that
// i18next deep-merges into the "translation" namespace (addResourceBundle).
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";
import { CORE_SECTIONS } from "./sections";

const PUBLIC_ID = "virtual:locale-chunks";
const RESOLVED_ID = `\0${PUBLIC_ID}`;
// One module per language and part: "virtual:locale-chunks/es-core", "virtual:locale-chunks/es-dashboard".
// The part after the slash names the chunk file (_app/es-dashboard-<hash>.js).
const PART = /^\0?virtual:locale-chunks\/([a-z]{2})-(.+)$/;
const CORE = "core";
/** The language when nothing else is detected (i18n.ts FALLBACK_LANGUAGE; <html lang="es"> says it too). */
const FALLBACK = "es";

type Texts = Record<string, unknown>;

export interface LocaleChunksOptions {
  /** The directory of the locale files, one <language>.json each. */
  dir: string;
  /** The top-level sections loaded before the first render (default: CORE_SECTIONS). */
  core?: readonly string[];
  /** Other modules a language needs before the first render (their path's end), preloaded with its core. */
  preloadWith?: (language: string) => string[];
}

export function localeChunks(options: LocaleChunksOptions): Plugin {
  const dir = path.resolve(options.dir);
  const core = new Set(options.core ?? CORE_SECTIONS);
  const languages = () =>
    readdirSync(dir)
      .filter((f) => /^[a-z]{2}\.json$/.test(f))
      .map((f) => f.slice(0, 2))
      .sort();
  const fileOf = (language: string) => path.join(dir, `${language}.json`);
  const read = (language: string): Texts => {
    const texts: unknown = JSON.parse(readFileSync(fileOf(language), "utf8"));
    if (texts === null || typeof texts !== "object" || Array.isArray(texts)) throw new Error(`${fileOf(language)}: not a JSON object`);
    return texts as Texts;
  };
  /** The lazy sections: every top-level key of any language that is not core, in file order. */
  const lazySections = (all: string[]) => {
    const seen = new Set<string>();
    for (const language of all) for (const key of Object.keys(read(language))) if (!core.has(key)) seen.add(key);
    return [...seen];
  };
  // A section name becomes part of a module id and a file name: keep to what both take.
  const checkName = (name: string) => {
    if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`locale section "${name}": top-level keys must be letters, digits or _`);
    return name;
  };

  let base = "/";
  let assetsDir = "assets";
  let preloadScript: string | null = null;

  return {
    name: "patrimonio:locale-chunks",
    configResolved(config) {
      base = config.base;
      assetsDir = config.build.assetsDir;
    },
    resolveId(id) {
      if (id === PUBLIC_ID) return RESOLVED_ID;
      if (PART.test(id)) return id.startsWith("\0") ? id : `\0${id}`;
      return null;
    },
    load(id) {
      if (id === RESOLVED_ID) {
        const all = languages();
        for (const language of all) this.addWatchFile(fileOf(language));
        const sections = lazySections(all).map(checkName);
        const loaders = all.map((language) => {
          const entries = sections.map((s) => `${JSON.stringify(s)}: () => import(${JSON.stringify(`${PUBLIC_ID}/${language}-${s}`)})`);
          return `${JSON.stringify(language)}: { core: () => import(${JSON.stringify(`${PUBLIC_ID}/${language}-${CORE}`)}), sections: { ${entries.join(", ")} } }`;
        });
        return [
          `export const CORE_SECTIONS = ${JSON.stringify([...core])};`,
          `export const LAZY_SECTIONS = ${JSON.stringify(sections)};`,
          `export const LOADERS = { ${loaders.join(", ")} };`,
        ].join("\n");
      }
      const part = PART.exec(id);
      if (!part) return null;
      const [, language = "", name = ""] = part;
      this.addWatchFile(fileOf(language));
      const texts = read(language);
      const picked: Texts =
        name === CORE
          ? Object.fromEntries(Object.entries(texts).filter(([key]) => core.has(key)))
          : name in texts && !core.has(name)
            ? { [name]: texts[name] }
            : {};
      // JSON.parse of a string literal: parsed faster than the same object as a JS literal.
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(picked))});`;
    },
    // The reader's core texts are known before the app's script runs: a small script (external: the
    // CSP allows no inline one) detects the language the way i18n.ts does and asks for that
    // language's core chunks at once (modulepreload), in parallel with the app's entry, instead of
    // after it has run. A wrong guess only costs a download.
    generateBundle(_options, bundle) {
      const urls: Record<string, string[]> = {};
      for (const language of languages()) {
        const wanted = [`${PUBLIC_ID}/${language}-${CORE}`, ...(options.preloadWith?.(language) ?? [])];
        urls[language] = Object.values(bundle)
          .filter((c) => c.type === "chunk" && c.moduleIds.some((id) => wanted.some((w) => id.replace(/\\/g, "/").endsWith(w))))
          .map((c) => base + c.fileName);
      }
      const source = `// Preloads the reader's core texts (pwa/src/i18n/localeChunks.ts).
(function () {
  var urls = ${JSON.stringify(urls)};
  var found = [];
  function add(read) { try { var v = read(); if (v) found.push(String(v)); } catch (e) {} }
  add(function () { return new URLSearchParams(location.search).get("lng"); });
  add(function () { var m = document.cookie.match(/(?:^|;\\s*)i18next=([^;]*)/); return m && m[1]; });
  add(function () { return localStorage.getItem("i18nextLng"); });
  add(function () { return sessionStorage.getItem("i18nextLng"); });
  (navigator.languages || []).forEach(function (l) { found.push(l); });
  add(function () { return navigator.language; });
  add(function () { return document.documentElement.getAttribute("lang"); });
  found.push(${JSON.stringify(FALLBACK)});
  for (var i = 0; i < found.length; i++) {
    var hrefs = urls[found[i].split("-")[0]];
    if (!hrefs) continue;
    hrefs.forEach(function (href) {
      var link = document.createElement("link");
      link.rel = "modulepreload";
      link.href = href;
      document.head.appendChild(link);
    });
    return;
  }
})();
`;
      const fileName = `${path.posix.join(assetsDir, `locale-init-${createHash("sha256").update(source).digest("hex").slice(0, 8)}`)}.js`;
      this.emitFile({ type: "asset", fileName, source });
      preloadScript = base + fileName;
    },
    transformIndexHtml: {
      order: "post",
      handler() {
        if (!preloadScript) return undefined;
        return [{ tag: "script", attrs: { src: preloadScript, async: true }, injectTo: "head" }];
      },
    },
    // In `vite` dev: an edited locale file reloads the page with the new texts.
    handleHotUpdate({ file, server }) {
      if (path.dirname(path.resolve(file)) !== dir || !file.endsWith(".json")) return;
      for (const module of server.moduleGraph.idToModuleMap.values()) {
        if (module.id === RESOLVED_ID || (module.id && PART.test(module.id))) server.moduleGraph.invalidateModule(module);
      }
      server.ws.send({ type: "full-reload" });
      return [];
    },
  };
}
