import { useMemo } from "react";
import { formatDate, formatMoney, formatNumber, formatPercent, type DecimalString } from "./format";
import { useLanguage } from "./useLanguage";

/** The formatting functions of ./format bound to the active language. */
export function useFormatters() {
  const { language } = useLanguage();
  return useMemo(
    () => ({
      number: (value: number | DecimalString, options?: Intl.NumberFormatOptions) =>
        formatNumber(value, language, options),
      percent: (points: number | DecimalString, options?: Intl.NumberFormatOptions) =>
        formatPercent(points, language, options),
      money: (amount: DecimalString, currency: string) => formatMoney(amount, currency, language),
      date: (value: Date | string, options?: Intl.DateTimeFormatOptions) => formatDate(value, language, options),
    }),
    [language],
  );
}
