// An amount and its ISO 4217 currency: the amount is a DecimalInput (typed the reader's way, held as
// a decimal string, shown with the currency's decimals; a paste with the currency's symbol or code,
// "1.234,56 €", is read), the currency a native select of the schema's codes named in the reader's
// language. Records keep amount and currency in two fields, so the two are controlled separately:
//
//   <Field label={t("asset.currentValue")} error={errors.currentValue?.message}>
//     <MoneyInput {...amountField} currency={currencyField.value} onCurrencyChange={currencyField.onChange} />
//   </Field>
//
// Without onCurrencyChange the currency is shown but fixed (every amount of an asset uses the
// asset's currency).
import { MONEY_INTEGER_DIGITS } from "@patrimonio/shared-schema";
import { useMemo, type Ref } from "react";
import { useTranslation } from "react-i18next";
import { useLanguage } from "../i18n/useLanguage";
import { cx } from "./cx";
import { CURRENCY_CODES, currencyDecimals, currencyName } from "./currency";
import { DecimalInput, type DecimalInputProps } from "./DecimalInput";
import styles from "./MoneyInput.module.css";
import inputStyles from "./Input.module.css";

export interface MoneyInputProps extends Omit<DecimalInputProps, "end" | "minDecimals" | "allowNegative"> {
  /** ISO 4217 code ("EUR"). */
  currency: string;
  onCurrencyChange?: (currency: string) => void;
  /** Offer only these codes (default: every ISO 4217 currency of the schema). */
  currencies?: readonly string[];
  currencyRef?: Ref<HTMLSelectElement>;
  /** Names the currency select (default "Moneda"). */
  currencyLabel?: string;
}

export function MoneyInput({ currency, onCurrencyChange, currencies = CURRENCY_CODES, currencyRef, currencyLabel, maxDecimals = 4, maxIntegerDigits = MONEY_INTEGER_DIGITS, className, disabled, ...rest }: MoneyInputProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const options = useMemo(
    () => [...new Set([...currencies, ...(currency ? [currency] : [])])].map((code) => ({ code, name: currencyName(code, language) })),
    [currencies, currency, language],
  );
  return (
    <div className={cx(styles.money, className)}>
      <DecimalInput {...rest} disabled={disabled} maxDecimals={maxDecimals} maxIntegerDigits={maxIntegerDigits} minDecimals={currency ? currencyDecimals(currency) : 0} currency={currency || undefined} className={styles.amount} />
      {onCurrencyChange ? (
        <select
          ref={currencyRef}
          className={cx(inputStyles.input, styles.currency)}
          aria-label={currencyLabel ?? t("ui.money.currency")}
          value={currency}
          disabled={disabled}
          onChange={(event) => onCurrencyChange(event.target.value)}
        >
          {options.map(({ code, name }) => (
            <option key={code} value={code}>
              {code === name ? code : `${code} · ${name}`}
            </option>
          ))}
        </select>
      ) : (
        <span className={styles.fixed} title={currencyName(currency, language)}>
          {currency}
        </span>
      )}
    </div>
  );
}
