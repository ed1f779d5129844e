// Light, dark and system themes. The preference lives in localStorage under THEME_STORAGE_KEY;
// "system" (also the default) follows the OS through prefers-color-scheme.
//
// public/theme-init.js repeats parse/resolve/apply in plain JS so the theme is set before first paint
// (the CSP allows no inline script); theme.test.ts checks the two agree.

export const THEME_STORAGE_KEY = "patrimonio.theme";
export const THEME_PREFERENCES = ["light", "dark", "system"] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ResolvedTheme = "light" | "dark";
export const DEFAULT_THEME_PREFERENCE: ThemePreference = "system";
export const DARK_SCHEME_QUERY = "(prefers-color-scheme: dark)";

/** <meta name="theme-color"> per theme: the top bar's background, so the browser chrome blends in. */
export const THEME_COLORS: Record<ResolvedTheme, string> = { light: "#ffffff", dark: "#111318" };

export function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === "string" && (THEME_PREFERENCES as readonly string[]).includes(value);
}

export function parseThemePreference(raw: string | null | undefined): ThemePreference {
  return isThemePreference(raw) ? raw : DEFAULT_THEME_PREFERENCE;
}

/** Reads the stored preference; storage that is missing or throws (privacy modes) means the default. */
export function readThemePreference(storage: Pick<Storage, "getItem"> | undefined): ThemePreference {
  try {
    return parseThemePreference(storage?.getItem(THEME_STORAGE_KEY));
  } catch {
    return DEFAULT_THEME_PREFERENCE;
  }
}

export function writeThemePreference(storage: Pick<Storage, "setItem"> | undefined, preference: ThemePreference) {
  try {
    storage?.setItem(THEME_STORAGE_KEY, preference);
  } catch {
    // Storage full or blocked: the choice still applies to this page.
  }
}

export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): ResolvedTheme {
  if (preference === "system") return systemPrefersDark ? "dark" : "light";
  return preference;
}

/** Marks the document: class "dark" and data-theme on <html>, color-scheme, and the theme-color meta. */
export function applyTheme(doc: Document, theme: ResolvedTheme): void {
  const root = doc.documentElement;
  root.classList.toggle("dark", theme === "dark");
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  doc.querySelector('meta[name="theme-color"]')?.setAttribute("content", THEME_COLORS[theme]);
}
