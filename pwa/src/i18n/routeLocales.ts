// Which lazy locale sections (loading.ts) a route needs. A route names them in its static data,
//   staticData: { titleKey: "shell.titles.dashboard", locales: ["dashboard", "money"] },
// and the root route loads the union over the matched routes (layouts included) before anything
// renders. The deepest matched route decides whether the list is complete: when it says nothing,
// EVERY lazy section loads (correct, only heavier), so a new screen works before it declares its
// sections. Core sections (sections.ts) are always there and need no mention.
import type { i18n as I18n } from "i18next";
import type { LocaleSection } from "./sections";
import { ensureSections } from "./loading";

declare module "@tanstack/react-router" {
  interface StaticDataRouteOption {
    /** The lazy locale sections this route's own component uses (its layout's are the layout's). */
    locales?: readonly LocaleSection[];
  }
}

interface MatchLike {
  staticData?: { locales?: readonly LocaleSection[] } | undefined;
}

/** The sections the matched routes (root first) need: their declared union, or "all" when the deepest says nothing. */
export function sectionsForMatches(matches: readonly MatchLike[]): readonly string[] | "all" {
  const deepest = matches.at(-1);
  if (!deepest?.staticData?.locales) return "all";
  return [...new Set(matches.flatMap((m) => m.staticData?.locales ?? []))];
}

/** Loads the texts of the matched routes into an instance (nothing for an instance with every text). */
export function loadRouteLocales(instance: I18n | undefined, matches: readonly MatchLike[]): Promise<void> {
  return instance ? ensureSections(instance, sectionsForMatches(matches)) : Promise.resolve();
}
