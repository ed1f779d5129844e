// Numbers typed the way the reader writes them ("1.234,56" in Spanish, "1,234.56" in English; a
// paste of either format works, see number.ts) while the form holds the exact decimal string
// ("1234.56"), never a binary float. Away from focus the number is shown grouped. A text that is not
// a number reaches the form as typed (the schema refuses it) and its precise error
// ("Escribe un número…", "Como máximo 2 decimales") replaces the form's in the enclosing Field.
//
// Controlled: <Controller name="units" render={({ field }) => <DecimalInput {...field} maxDecimals={4} />} />.
// PercentInput and MoneyInput are built on it.
import type { FocusEvent, InputHTMLAttributes, ReactNode, Ref } from "react";
import { isDecimalString } from "../i18n/format";
import { useLanguage } from "../i18n/useLanguage";
import { cx } from "./cx";
import styles from "./Input.module.css";
import { editableDecimal, formatDecimal, parseDecimal, type NumberParseError } from "./number";
import { TextInput } from "./TextInput";
import { useParsedInput } from "./useParsedInput";

export interface DecimalInputProps
  extends Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "defaultValue" | "onChange" | "type" | "inputMode"> {
  /** A decimal string ("1234.56") or "". */
  value?: string | undefined;
  onChange?: (value: string) => void;
  /** At most this many decimals (match the schema: money 4, share 2). */
  maxDecimals?: number;
  /** Decimals always shown away from focus (money: the currency's, 2 for EUR). */
  minDecimals?: number;
  allowNegative?: boolean;
  maxIntegerDigits?: number;
  /** A money field's currency (ISO 4217): its code or symbol around a typed or pasted number is
   * accepted (number.ts, rule 8). */
  currency?: string | undefined;
  onParseError?: (error: NumberParseError | null) => void;
  start?: ReactNode;
  end?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function DecimalInput({
  value,
  onChange,
  onBlur,
  onFocus,
  maxDecimals,
  minDecimals = 0,
  allowNegative = false,
  maxIntegerDigits,
  currency,
  onParseError,
  className,
  ...rest
}: DecimalInputProps) {
  const { language } = useLanguage();
  const parsed = useParsedInput({
    value,
    onChange,
    onBlur: onBlur as ((event: FocusEvent<HTMLInputElement>) => void) | undefined,
    onFocus: onFocus as ((event: FocusEvent<HTMLInputElement>) => void) | undefined,
    parse: (text) => parseDecimal(text, language, { maxDecimals, allowNegative, maxIntegerDigits, ...(currency ? { currency } : {}) }),
    isValue: isDecimalString,
    display: (v) => formatDecimal(v, language, minDecimals),
    editable: (v) => editableDecimal(v, language),
    onParseError: onParseError as ((error: { key: string } | null) => void) | undefined,
  });
  return (
    <TextInput
      autoComplete="off"
      spellCheck={false}
      // The iOS decimal keyboard has no minus sign.
      inputMode={allowNegative ? "text" : "decimal"}
      {...rest}
      {...(parsed.invalid ? { "aria-invalid": true } : {})}
      value={parsed.value}
      onChange={parsed.onChange}
      onFocus={parsed.onFocus}
      onBlur={parsed.onBlur}
      className={cx(styles.numeric, className)}
    />
  );
}

export type PercentInputProps = Omit<DecimalInputProps, "end">;

/** Percentage points ("12.5" is 12,5 %), two decimals by default, with a % sign after the number. */
export function PercentInput({ maxDecimals = 2, ...rest }: PercentInputProps) {
  return <DecimalInput maxDecimals={maxDecimals} {...rest} end={<span>%</span>} />;
}
