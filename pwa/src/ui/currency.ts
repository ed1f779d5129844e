// ISO 4217 currencies for pickers: the shared schema's list, named in the reader's language.
import { CURRENCY_CODES } from "@patrimonio/shared-schema";
import { INTL_LOCALES } from "../i18n/format";
import { minorUnits } from "../money/sum";
import type { Language } from "../i18n/i18n";

export { CURRENCY_CODES };

/** "EUR" → "euro" (es) / "Euro" (en); the code itself when the platform has no name. */
export function currencyName(code: string, language: Language): string {
  try {
    return new Intl.DisplayNames([INTL_LOCALES[language]], { type: "currency" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** The currency's usual decimals: EUR 2, JPY 0, BHD 3 (one table for the whole app: money's). */
export const currencyDecimals = minorUnits;
