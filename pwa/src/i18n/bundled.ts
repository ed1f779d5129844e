// Both languages' texts bundled, for the synchronous createI18n of tests and test pages (imported by
// src/test/setup.ts and the e2e pages). The app never imports this module: it loads the active
// language's texts alone (createLazyI18n), the other one on a switch.
import { MESSAGES } from "@patrimonio/shared-schema";
import { registerBundledResources, SCHEMA_NAMESPACE } from "./i18n";
import en from "./locales/en.json";
import es from "./locales/es.json";

export const resources = {
  en: { translation: en, [SCHEMA_NAMESPACE]: MESSAGES.en },
  es: { translation: es, [SCHEMA_NAMESPACE]: MESSAGES.es },
} as const;

registerBundledResources(resources);
