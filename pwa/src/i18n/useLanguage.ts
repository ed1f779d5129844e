import { useTranslation } from "react-i18next";
import { activeLanguage, type Language } from "./i18n";
import { ensureLanguage, originalInstance } from "./loading";

/** The active language and a setter (the detector caches the choice in localStorage). */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => void } {
  const { i18n } = useTranslation();
  return {
    language: activeLanguage(i18n),
    // The app loads one language's texts at start: the other one (its core and every section loaded
    // so far) comes before switching to it; at once when it is in already.
    setLanguage: (language) => {
      const instance = originalInstance(i18n);
      void ensureLanguage(instance, language).then(() => instance.changeLanguage(language));
    },
  };
}
