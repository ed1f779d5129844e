// The app's i18next instance: English base texts, Spanish fallback, es-ES app locale.
// Detection follows the spec: ?lng=, cookie i18next, localStorage i18nextLng, sessionStorage,
// the browser's languages, then <html lang>; the detected language is cached in localStorage.
import i18next, { type FormatterModule, type i18n as I18n, type InitOptions } from "i18next";
import { initReactI18next } from "react-i18next";
import { formatNumber } from "./format";

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
} as const;

/** "es-ES" → "es", "en-US" → "en": the language (not the region) picks the texts, and the cached
 * value stays one of SUPPORTED_LANGUAGES. */
const languageOf = (code: string) => code.split("-")[0] ?? code;

/** Reads storage that may be unavailable (private modes, blocked cookies): null then. */
function safely(read: () => string | null | undefined): string | null {
  try {
    return read() ?? null;
  } catch {
    return null;
  }
}

/**
 * The browser's language candidates in DETECTION_OPTIONS.order (i18next takes the first supported
 * one). Our own few lines instead of i18next-browser-languagedetector: the same sources and cache,
 * ~2 KB less on every first page.
 */
export function detectLanguages(): string[] {
  const o = DETECTION_OPTIONS;
  const found: (string | null)[] = [
    safely(() => new URLSearchParams(window.location.search).get(o.lookupQuerystring)),
    safely(() => document.cookie.match(new RegExp(`(?:^|;\\s*)${o.lookupCookie}=([^;]*)`))?.[1]),
    safely(() => window.localStorage.getItem(o.lookupLocalStorage)),
    safely(() => window.sessionStorage.getItem(o.lookupSessionStorage)),
    ...(typeof navigator === "undefined" ? [] : [...(navigator.languages ?? []), navigator.language]),
    safely(() => document.documentElement.getAttribute("lang")),
  ];
  return found.filter((code): code is string => !!code && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(code)).map(languageOf);
}

const languageDetector = {
  type: "languageDetector" as const,
  detect: detectLanguages,
  cacheUserLanguage(language: string) {
    safely(() => {
      window.localStorage.setItem(DETECTION_OPTIONS.lookupLocalStorage, language);
      return null;
    });
  },
};

/**
 * Every number interpolated into a text ({{count}} and any other) is written the reader's way,
 * "10.000 activos", "10,000 assets" (i18next would write String(10000)); plural selection still
 * uses the number itself. Numbers that are not quantities (a year, a line of a file, an id, a
 * postcode) are passed to t() as strings, which are left as they are.
 */
const numberFormatter: FormatterModule = {
  type: "formatter",
  init() {},
  add() {},
  addCached() {},
  format(value: unknown, _format, lng) {
    if (typeof value !== "number" || !Number.isFinite(value)) return value as string;
    const language = lng ? languageOf(lng) : FALLBACK_LANGUAGE;
    return formatNumber(value, isLanguage(language) ? language : FALLBACK_LANGUAGE, { maximumFractionDigits: 20 });
  },
};

/** The namespace of the shared schema's validation messages and labels (forms translate its keys). */
export const SCHEMA_NAMESPACE = "schema";

type Bundles = { translation: object; [SCHEMA_NAMESPACE]: object };

/** Both languages' texts, for createI18n (tests, test pages): set by importing ./bundled. The app
 * does not import them (it loads them in parts, see loading.ts). */
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
 * `lng` skips detection; tests use it. The app uses createLazyI18n (loading.ts: texts in parts).
 */
export function createI18n(options: { lng?: Language } = {}): I18n {
  if (bundledResources === null) throw new Error('createI18n needs both languages: import "i18n/bundled" first');
  return initInstance(bundledResources, options.lng);
}

/** A new instance with the given texts (all of them: createI18n; none yet: loading.ts). */
export function initInstance(bundled: Partial<Resources>, lng?: Language, extra: InitOptions = {}): I18n {
  const instance = i18next.createInstance();
  instance.use(languageDetector).use(numberFormatter).use(initReactI18next);
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
    // React escapes; every value goes through numberFormatter (numbers in the reader's format).
    interpolation: { escapeValue: false, alwaysFormat: true },
    initAsync: false,
    ...extra,
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
