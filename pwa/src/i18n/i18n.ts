// The app's i18next instance: English base texts, Spanish fallback, es-ES app locale.
// Detection follows the spec: ?lng=, cookie i18next, localStorage i18nextLng, sessionStorage,
// the browser's languages, then <html lang>; the detected language is cached in localStorage.
import i18next, { type i18n as I18n } from "i18next";
import LanguageDetector, { type DetectorOptions } from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";

export const SUPPORTED_LANGUAGES = ["es", "en"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];

export const FALLBACK_LANGUAGE: Language = "es";
/** The app's locale: most users read Spanish as spoken in Spain. */
export const APP_LOCALE = "es-ES";
export const DEFAULT_NAMESPACE = "translation";

export const DETECTION_OPTIONS = {
  order: ["querystring", "cookie", "localStorage", "sessionStorage", "navigator", "htmlTag"],
  lookupQuerystring: "lng",
  lookupCookie: "i18next",
  lookupLocalStorage: "i18nextLng",
  lookupSessionStorage: "i18nextLng",
  caches: ["localStorage"],
  // "es-ES" → "es", "en-US" → "en": the language (not the region) picks the texts, and the cached
  // value stays one of SUPPORTED_LANGUAGES.
  convertDetectedLanguage: (lng: string) => lng.split("-")[0] ?? lng,
} satisfies DetectorOptions;

/** The namespace of the shared schema's validation messages and labels (forms translate its keys). */
export const SCHEMA_NAMESPACE = "schema";

type Bundles = { translation: object; [SCHEMA_NAMESPACE]: object };

/** Both languages' texts, for createI18n (tests, test pages): set by importing ./bundled. The app
 * does not import them (it loads one language's, see createLazyI18n). */
type Resources = Record<Language, Bundles>;
let bundledResources: Resources | null = null;

/** Called by ./bundled with both languages' texts. */
export function registerBundledResources(resources: Resources): void {
  bundledResources = resources;
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** The active language of an instance, always one of SUPPORTED_LANGUAGES. */
export function activeLanguage(instance: I18n): Language {
  const lng = instance.resolvedLanguage ?? instance.language;
  return isLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}

/**
 * Creates and initialises (synchronously: both languages bundled) a new i18next instance.
 * `lng` skips detection; tests use it. The app uses createLazyI18n (one language's texts).
 */
export function createI18n(options: { lng?: Language } = {}): I18n {
  if (bundledResources === null) throw new Error('createI18n needs both languages: import "i18n/bundled" first');
  return initInstance(bundledResources, options.lng);
}

/** The texts of one language (the app's and the shared schema's), each its own chunk. */
const LOADERS: Record<Language, () => Promise<Bundles>> = {
  es: () =>
    Promise.all([import("./locales/es.json"), import("@patrimonio/shared-schema/messages/es.json")]).then(([app, schema]) => ({
      translation: app.default,
      [SCHEMA_NAMESPACE]: schema.default,
    })),
  en: () =>
    Promise.all([import("./locales/en.json"), import("@patrimonio/shared-schema/messages/en.json")]).then(([app, schema]) => ({
      translation: app.default,
      [SCHEMA_NAMESPACE]: schema.default,
    })),
};

/** Loads a language's texts into an instance unless it has them already. */
export async function ensureLanguage(instance: I18n, language: Language): Promise<void> {
  if (instance.hasResourceBundle(language, DEFAULT_NAMESPACE)) return;
  const bundles = await LOADERS[language]();
  instance.addResourceBundle(language, DEFAULT_NAMESPACE, bundles.translation, true, true);
  instance.addResourceBundle(language, SCHEMA_NAMESPACE, bundles[SCHEMA_NAMESPACE], true, true);
}

/**
 * The app's instance: detects the language at once and loads only that language's texts (the other
 * one on a language switch, see useLanguage). `ready` resolves once they are in: render after it.
 * Spanish stays the fallback language but is not loaded for an English reader: the locale files
 * have the same keys (locales.test.ts), so the fallback is not consulted.
 */
export function createLazyI18n(): { i18n: I18n; ready: Promise<void> } {
  const instance = initInstance({});
  const language = isLanguage(instance.language) ? instance.language : FALLBACK_LANGUAGE;
  const ready = ensureLanguage(instance, language).then(async () => {
    await instance.changeLanguage(language);
  });
  return { i18n: instance, ready };
}

function initInstance(bundled: Partial<Resources>, lng?: Language): I18n {
  const instance = i18next.createInstance();
  instance.use(LanguageDetector).use(initReactI18next);
  void instance.init({
    resources: bundled,
    partialBundledLanguages: true,
    lng,
    fallbackLng: FALLBACK_LANGUAGE,
    supportedLngs: SUPPORTED_LANGUAGES,
    nonExplicitSupportedLngs: true,
    load: "languageOnly",
    defaultNS: DEFAULT_NAMESPACE,
    ns: [DEFAULT_NAMESPACE, SCHEMA_NAMESPACE],
    detection: DETECTION_OPTIONS,
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
  });
  return instance;
}

/** Keeps <html lang> equal to the active language ("es" or "en"). Returns the unsubscribe function. */
export function bindDocumentLanguage(instance: I18n, root: HTMLElement): () => void {
  const apply = () => {
    root.lang = activeLanguage(instance);
  };
  apply();
  instance.on("languageChanged", apply);
  return () => instance.off("languageChanged", apply);
}
