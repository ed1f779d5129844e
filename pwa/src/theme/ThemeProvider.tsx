import { createContext, useCallback, useContext, useEffect, useLayoutEffect, useMemo, useState, useSyncExternalStore } from "react";
import type { ReactNode } from "react";
import {
  DARK_SCHEME_QUERY,
  THEME_STORAGE_KEY,
  applyTheme,
  parseThemePreference,
  readThemePreference,
  resolveTheme,
  writeThemePreference,
  type ResolvedTheme,
  type ThemePreference,
} from "./theme";

interface ThemeState {
  preference: ThemePreference;
  resolved: ResolvedTheme;
  setPreference: (preference: ThemePreference) => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

type MatchMedia = (query: string) => MediaQueryList | undefined;

interface ThemeProviderProps {
  children: ReactNode;
  /** Where the preference is kept; window.localStorage unless a test gives another. */
  storage?: Storage | undefined;
  /** The OS colour-scheme source; window.matchMedia unless a test gives another. */
  matchMedia?: MatchMedia;
  /** The document to mark; the current one by default. */
  doc?: Document;
}

function defaultStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** window.matchMedia where the browser has it (jsdom does not). Stable, so subscriptions stay put. */
const windowMatchMedia: MatchMedia = (query) =>
  typeof window.matchMedia === "function" ? window.matchMedia(query) : undefined;

/** Follows the OS dark-mode setting live, through the media query's change events. */
function useSystemPrefersDark(matchMedia: MatchMedia): boolean {
  const query = useMemo(() => matchMedia(DARK_SCHEME_QUERY), [matchMedia]);
  const subscribe = useCallback(
    (onChange: () => void) => {
      query?.addEventListener("change", onChange);
      return () => query?.removeEventListener("change", onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => query?.matches ?? false, () => false);
}

export function ThemeProvider({
  children,
  storage = defaultStorage(),
  matchMedia = windowMatchMedia,
  doc = document,
}: ThemeProviderProps) {
  const [preference, setPreferenceState] = useState<ThemePreference>(() => readThemePreference(storage));
  const systemPrefersDark = useSystemPrefersDark(matchMedia);
  const resolved = resolveTheme(preference, systemPrefersDark);

  useLayoutEffect(() => {
    applyTheme(doc, resolved);
  }, [doc, resolved]);

  // Another tab changed the theme: follow it.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === THEME_STORAGE_KEY) setPreferenceState(parseThemePreference(event.newValue));
    };
    window.addEventListener("storage", onStorage);
    return () => window.removeEventListener("storage", onStorage);
  }, []);

  const setPreference = useCallback(
    (next: ThemePreference) => {
      writeThemePreference(storage, next);
      setPreferenceState(next);
    },
    [storage],
  );

  const value = useMemo(() => ({ preference, resolved, setPreference }), [preference, resolved, setPreference]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error("useTheme must be used inside <ThemeProvider>");
  return state;
}
