// The hosted provider's (Clerk's) components speak the reader's language: Spanish from Spain, or
// British English (the app writes dates and numbers the en-GB way), from @clerk/localizations.
import { enGB } from "@clerk/localizations/en-GB";
import { esES } from "@clerk/localizations/es-ES";

export type ClerkLocalization = typeof esES;

/** Clerk's texts for the app language ("es" by default, like the app). */
export function clerkLocalization(language: string | undefined): ClerkLocalization {
  return language?.toLowerCase().startsWith("en") ? enGB : esES;
}
