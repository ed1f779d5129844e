// The top-level sections of the locale files that every page may need, loaded with the language
// before the first render: the app's name and shell, the sign-in pages, errors, toasts, the kit's own
// texts, the re-verification dialog (it opens on any screen) and what they share. Every other
// top-level section is its own lazily loaded chunk (localeChunks.ts), loaded before a route that
// declares it renders (routeLocales.ts). Keep this list short: each entry costs every first page.
import type en from "./locales/en.json";

/** A top-level section of the locale files ("dashboard", "assets", ...). */
export type LocaleSection = keyof typeof en;

export const CORE_SECTIONS = [
  "app",
  "nav",
  "language",
  "theme",
  "router",
  "pwa",
  "toast",
  "common",
  "errors",
  "forms",
  "ui",
  "legal",
  "shell",
  "sync",
  "userMenu",
  "workspace",
  "accessDenied",
  "auth",
  "reverify",
  "account",
  "passkeys",
] as const satisfies readonly LocaleSection[];
