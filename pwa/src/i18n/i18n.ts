// The app's i18next instance: English base texts, Spanish fallback, es-ES app locale.
// Detection follows the spec: ?lng=, cookie i18next, localStorage i18nextLng, sessionStorage,
// the browser's languages, then <html lang>; the detected language is cached in localStorage.
import i18next, { type i18n as I18n } from "i18next";
import LanguageDetector, { type DetectorOptions } from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import { MESSAGES } from "@patrimonio/shared-schema";
import en from "./locales/en.json";
import es from "./locales/es.json";

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

export const resources = {
  en: { translation: en, [SCHEMA_NAMESPACE]: MESSAGES.en },
  es: { translation: es, [SCHEMA_NAMESPACE]: MESSAGES.es },
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (SUPPORTED_LANGUAGES as readonly string[]).includes(value);
}

/** The active language of an instance, always one of SUPPORTED_LANGUAGES. */
export function activeLanguage(instance: I18n): Language {
  const lng = instance.resolvedLanguage ?? instance.language;
  return isLanguage(lng) ? lng : FALLBACK_LANGUAGE;
}

/**
 * Creates and initialises (synchronously: resources are bundled) a new i18next instance.
 * `lng` skips detection; tests use it.
 */
export function createI18n(options: { lng?: Language } = {}): I18n {
  const instance = i18next.createInstance();
  instance.use(LanguageDetector).use(initReactI18next);
  void instance.init({
    resources,
    lng: options.lng,
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
