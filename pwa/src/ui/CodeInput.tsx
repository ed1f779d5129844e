// A one-time code (e-mailed or from an authenticator app): 6 digits by default. It asks for the
// numeric keyboard and offers the code the phone received (autocomplete=one-time-code). Whatever is
// typed or pasted keeps only its digits, up to `length`: pasting "123 456" or "123-456" gives
// "123456". The value reaches react-hook-form (register or Controller) already cleaned.
import type { ChangeEvent, InputHTMLAttributes, Ref } from "react";
import { cx } from "./cx";
import { useFieldControl } from "./Field";
import styles from "./Input.module.css";

export interface CodeInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "type" | "maxLength"> {
  /** How many digits (default 6). */
  length?: number;
  ref?: Ref<HTMLInputElement>;
}

/** The digits of a typed or pasted code, at most `length` of them. */
export function cleanCode(value: string, length = 6): string {
  return value.replace(/[^0-9]/g, "").slice(0, length);
}

export function CodeInput({ length = 6, className, onChange, ref, ...rest }: CodeInputProps) {
  const wired = useFieldControl(rest);
  function change(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const clean = cleanCode(input.value, length);
    if (clean !== input.value) input.value = clean;
    onChange?.(event);
  }
  return (
    <input
      ref={ref}
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      spellCheck={false}
      autoCorrect="off"
      autoCapitalize="off"
      {...wired}
      onChange={change}
      className={cx(styles.input, styles.code, className)}
    />
  );
}
