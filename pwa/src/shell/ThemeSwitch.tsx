import { Monitor, Moon, Sun } from "lucide-react";
import { useTranslation } from "react-i18next";
import { THEME_PREFERENCES, isThemePreference } from "../theme/theme";
import { useTheme } from "../theme/ThemeProvider";
import { SelectField } from "./SelectField";

const ICONS = { light: Sun, dark: Moon, system: Monitor } as const;

export function ThemeSwitch() {
  const { t } = useTranslation();
  const { preference, setPreference } = useTheme();
  return (
    <SelectField
      label={t("theme.label")}
      icon={ICONS[preference]}
      data-testid="theme-switch"
      value={preference}
      onChange={(event) => {
        if (isThemePreference(event.target.value)) setPreference(event.target.value);
      }}
    >
      {THEME_PREFERENCES.map((p) => (
        <option key={p} value={p}>
          {t(`theme.${p}`)}
        </option>
      ))}
    </SelectField>
  );
}
