// A one-line text input. Inside a Field it is wired to the label, hint and error. Works with
// react-hook-form's register (ref is a prop) and as a controlled input.
import type { InputHTMLAttributes, ReactNode, Ref } from "react";
import { cx } from "./cx";
import { useFieldControl } from "./Field";
import styles from "./Input.module.css";

export interface TextInputProps extends InputHTMLAttributes<HTMLInputElement> {
  /** Decoration before the text (an icon), not announced. */
  start?: ReactNode;
  /** After the text: a unit, or an interactive element (a clear button). */
  end?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

export function TextInput({ start, end, className, ref, type = "text", ...rest }: TextInputProps) {
  const wired = useFieldControl(rest);
  const input = (
    <input
      ref={ref}
      type={type}
      {...wired}
      className={cx(styles.input, start != null && styles.hasStart, end != null && styles.hasEnd, className)}
    />
  );
  if (start == null && end == null) return input;
  return (
    <div className={styles.wrap}>
      {start != null && (
        <span className={styles.start} aria-hidden="true">
          {start}
        </span>
      )}
      {input}
      {end != null && <span className={styles.end}>{end}</span>}
    </div>
  );
}
