// The app's texts, loaded in parts (the tests and test pages use createI18n with everything bundled).
// - At start, the detected language's core texts (sections.ts) and the shared schema's messages.
// - Before a route renders, the lazy sections it declares (routeLocales.ts), each its own chunk
//   (localeChunks.ts cuts them out of locales/<language>.json at build time).
// - On a language switch, the new language's core and every section loaded so far.
// Nothing renders before its texts are in, so no raw key ever shows (i18next has them all by then).
import type { i18n as I18n } from "i18next";
import { LAZY_SECTIONS, LOADERS } from "virtual:locale-chunks";
import { DEFAULT_NAMESPACE, FALLBACK_LANGUAGE, initInstance, isLanguage, SCHEMA_NAMESPACE, type Language } from "./i18n";

const LAZY = new Set(LAZY_SECTIONS);
const CORE = "";

/** The shared schema's messages (validation texts, labels), one chunk per language. */
const SCHEMA_LOADERS: Record<Language, () => Promise<{ default: object }>> = {
  es: () => import("@patrimonio/shared-schema/messages/es.json"),
  en: () => import("@patrimonio/shared-schema/messages/en.json"),
};

interface LoadState {
  /** The languages whose texts are wanted (loaded or loading). */
  languages: Set<Language>;
  /** The lazy sections wanted so far, in every language of `languages`. */
  sections: Set<string>;
  /** One load per language and part ("es/" is the core, "es/dashboard" a section); failed ones are forgotten. */
  loads: Map<string, Promise<void>>;
}

/** Only instances made by createLazyI18n load texts; createI18n's have them all already. */
const states = new WeakMap<I18n, LoadState>();

/**
 * The instance itself: react-i18next's useTranslation() hands out a wrapper of it (a copy of its own
 * properties that keeps the original as `__original`), on which state set here is not found and
 * language changes would not reach the instance the app renders with.
 */
export function originalInstance(instance: I18n): I18n {
  return (instance as I18n & { __original?: I18n }).__original ?? instance;
}

function loadPart(instance: I18n, state: LoadState, language: Language, part: string): Promise<void> {
  const key = `${language}/${part}`;
  let load = state.loads.get(key);
  if (!load) {
    const texts = LOADERS[language];
    if (!texts) throw new Error(`no locale file for ${language}`);
    load = (
      part === CORE
        ? Promise.all([texts.core(), SCHEMA_LOADERS[language]()]).then(([app, schema]) => {
            instance.addResourceBundle(language, DEFAULT_NAMESPACE, app.default, true, true);
            instance.addResourceBundle(language, SCHEMA_NAMESPACE, schema.default, true, true);
          })
        : (texts.sections[part]?.() ?? Promise.resolve({ default: {} })).then((section) => {
            instance.addResourceBundle(language, DEFAULT_NAMESPACE, section.default, true, true);
          })
    ).catch((error: unknown) => {
      // Offline before the chunk was cached: the next navigation may try again.
      state.loads.delete(key);
      throw error;
    });
    state.loads.set(key, load);
  }
  return load;
}

/** Loads a language's texts (core and every section loaded so far) into an instance. */
export async function ensureLanguage(given: I18n, language: Language): Promise<void> {
  const instance = originalInstance(given);
  const state = states.get(instance);
  if (!state) return;
  state.languages.add(language);
  await Promise.all([CORE, ...state.sections].map((part) => loadPart(instance, state, language, part)));
}

/**
 * Loads lazy sections (all of them for "all") in every language the instance has. Core sections
 * and names that are not sections are ignored. Resolves at once when they are in already.
 */
export async function ensureSections(given: I18n, sections: readonly string[] | "all"): Promise<void> {
  const instance = originalInstance(given);
  const state = states.get(instance);
  if (!state) return;
  const wanted = sections === "all" ? LAZY_SECTIONS : sections.filter((s) => LAZY.has(s));
  for (const section of wanted) state.sections.add(section);
  await Promise.all([...state.languages].flatMap((language) => wanted.map((section) => loadPart(instance, state, language, section))));
}

/** Every top-level section not loaded at start (each its own chunk). */
export const lazySections: readonly string[] = LAZY_SECTIONS;

/**
 * The app's instance: detects the language at once and loads only that language's core texts (the
 * other language on a switch, see useLanguage; sections with the routes, see routeLocales.ts).
 * `ready` resolves once they are in: render after it. Spanish stays the fallback language but is
 * not loaded for an English reader: the locale files have the same keys (locales.test.ts).
 */
export function createLazyI18n(): { i18n: I18n; ready: Promise<void> } {
  const state: LoadState = { languages: new Set(), sections: new Set(), loads: new Map() };
  const instance = initInstance({}, undefined, {
    // The safety net for a text of a lazy section used where no route declared it (a widget of the
    // shell, a dialog opened from another screen): the lookup misses once, the section loads and
    // every useTranslation component renders again with it ("added"). Declare sections on routes
    // (routeLocales.ts) so that this never shows a raw key, even for a moment.
    saveMissing: true,
    missingKeyHandler: (_languages, namespace, key) => {
      const section = key.split(".", 1)[0] ?? "";
      if (namespace !== DEFAULT_NAMESPACE || !LAZY.has(section) || state.sections.has(section)) return;
      if (import.meta.env.DEV) console.warn(`"${key}" was used before its locale section "${section}" loaded: add it to the route's staticData.locales`);
      void ensureSections(instance, [section]).catch(() => undefined);
    },
    react: { bindI18nStore: "added" },
  });
  states.set(instance, state);
  const language = isLanguage(instance.language) ? instance.language : FALLBACK_LANGUAGE;
  const ready = ensureLanguage(instance, language).then(async () => {
    await instance.changeLanguage(language);
  });
  return { i18n: instance, ready };
}
