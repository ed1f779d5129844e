import { useTranslation } from "react-i18next";
import { activeLanguage, type Language } from "./i18n";

/** The active language and a setter (the detector caches the choice in localStorage). */
export function useLanguage(): { language: Language; setLanguage: (language: Language) => void } {
  const { i18n } = useTranslation();
  return {
    language: activeLanguage(i18n),
    setLanguage: (language) => {
      void i18n.changeLanguage(language);
    },
  };
}
