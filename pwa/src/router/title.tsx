// The document title: "<Screen> · Patrimonio", translated, following language changes. Each route
// names its screen with `staticData: { titleKey }` (the deepest match that has one wins); a fallback
// view (Not Found, Something went wrong!, Access denied) claims the title while it is shown with
// useTitleOverride. Titles are set from React (not TanStack's head()), because head() runs when a
// route loads and would keep the old language until the next navigation.
import { useMatches } from "@tanstack/react-router";
import { createContext, useContext, useEffect, useLayoutEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type en from "../i18n/locales/en.json";

/** Keys of the screen names in the locale files ("shell.titles.*" and the fallbacks' own titles). */
export type TitleKey =
  | `shell.titles.${keyof (typeof en)["shell"]["titles"]}`
  | `billing.titles.${keyof (typeof en)["billing"]["titles"]}`
  | "router.notFound.title"
  | "router.error.title"
  | "accessDenied.title";

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The screen's name in the document title. */
    titleKey?: TitleKey;
  }
}

/** "Panel · Patrimonio"; the bare app name when no screen is named. */
export function documentTitle(screen: string | undefined, appName: string): string {
  return screen ? `${screen} · ${appName}` : appName;
}

type SetOverride = (key: TitleKey | null) => void;
const TitleOverrideContext = createContext<SetOverride | null>(null);

/** Sets the document title in the current language. */
function useSetDocumentTitle(key: TitleKey | undefined) {
  const { t } = useTranslation();
  const text = documentTitle(key ? t(key) : undefined, t("app.name"));
  useEffect(() => {
    document.title = text;
  }, [text]);
}

/**
 * A fallback view claims the document title while it is mounted. Outside DocumentTitle (an error of
 * the root route itself) it sets the title directly.
 */
export function useTitleOverride(key: TitleKey) {
  const setOverride = useContext(TitleOverrideContext);
  useLayoutEffect(() => {
    if (!setOverride) return;
    setOverride(key);
    return () => setOverride(null);
  }, [setOverride, key]);
  const { t } = useTranslation();
  const text = documentTitle(t(key), t("app.name"));
  useEffect(() => {
    if (!setOverride) document.title = text;
  }, [setOverride, text]);
}

/** The root route's title keeper: renders its children and sets document.title. */
export function DocumentTitle({ children }: { children?: ReactNode }) {
  const [override, setOverride] = useState<TitleKey | null>(null);
  const routeKey = useMatches({
    select: (matches) => {
      for (let i = matches.length - 1; i >= 0; i--) {
        const key = matches[i]?.staticData.titleKey;
        if (key) return key;
      }
      return undefined;
    },
  });
  useSetDocumentTitle(override ?? routeKey);
  const value = useMemo(() => setOverride, []);
  return <TitleOverrideContext.Provider value={value}>{children}</TitleOverrideContext.Provider>;
}
