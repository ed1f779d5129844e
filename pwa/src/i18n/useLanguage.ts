import { useTranslation } from "react-i18next";
import { activeLanguage, DEFAULT_NAMESPACE, ensureLanguage, type Language } from "./i18n";

/** The active language and a setter (the detector caches the choice in localStorage). */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => void } {
  const { i18n } = useTranslation();
  return {
    language: activeLanguage(i18n),
    // The app loads one language's texts at start: the other one comes before switching to it.
    setLanguage: (language) => {
      if (i18n.hasResourceBundle(language, DEFAULT_NAMESPACE)) void i18n.changeLanguage(language);
      else void ensureLanguage(i18n, language).then(() => i18n.changeLanguage(language));
    },
  };
}
