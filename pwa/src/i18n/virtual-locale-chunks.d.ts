// The module localeChunks.ts (a Vite plugin) makes from the locale files at build time.
declare module "virtual:locale-chunks" {
  type Texts = Record<string, unknown>;
  type Loader = () => Promise<{ default: Texts }>;
  /** The sections loaded with the language before the first render (sections.ts). */
  export const CORE_SECTIONS: readonly string[];
  /** Every other top-level section of the locale files, each its own chunk. */
  export const LAZY_SECTIONS: readonly string[];
  /** Per language: the core texts, and each lazy section's texts ({ section: {...} }). */
  export const LOADERS: Record<string, { core: Loader; sections: Record<string, Loader> }>;
}
