import { Languages } from "lucide-react";
import { useTranslation } from "react-i18next";
import { SUPPORTED_LANGUAGES, isLanguage } from "../i18n/i18n";
import { useLanguage } from "../i18n/useLanguage";
import { SelectField } from "./SelectField";

export function LanguageSwitch() {
  const { t } = useTranslation();
  const { language, setLanguage } = useLanguage();
  return (
    <SelectField
      label={t("language.label")}
      icon={Languages}
      data-testid="language-switch"
      value={language}
      onChange={(event) => {
        if (isLanguage(event.target.value)) setLanguage(event.target.value);
      }}
    >
      {SUPPORTED_LANGUAGES.map((lng) => (
        <option key={lng} value={lng} lang={lng}>
          {t(`language.${lng}`)}
        </option>
      ))}
    </SelectField>
  );
}
