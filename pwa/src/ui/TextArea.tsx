// A multi-line text input. With `maxChars` it shows a live counter ("12 / 140") that counts the way
// the shared schema does (Unicode code points: an emoji is one character), turns red past the limit
// and is linked to the control for screen readers. There is no native maxLength (it counts UTF-16
// units, which would cut an emoji in half and disagree with the schema): the schema reports the error.
import { useId, useState, type ChangeEvent, type Ref, type TextareaHTMLAttributes } from "react";
import { codePointLength } from "@patrimonio/shared-schema";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../i18n/format";
import { useLanguage } from "../i18n/useLanguage";
import { cx } from "./cx";
import { useFieldControl } from "./Field";
import styles from "./Input.module.css";

export interface TextAreaProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  /** The schema's maximum (in characters): shows the counter. */
  maxChars?: number;
  ref?: Ref<HTMLTextAreaElement>;
}

function initialText(value: TextAreaProps["value"] | TextAreaProps["defaultValue"]): string {
  if (value == null) return "";
  return Array.isArray(value) ? value.join(",") : String(value);
}

export function TextArea({ maxChars, className, ref, onChange, rows = 4, ...rest }: TextAreaProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const counterId = useId();
  // Uncontrolled (react-hook-form's register): the counter follows what is typed.
  const [typed, setTyped] = useState(() => initialText(rest.defaultValue));
  const text = rest.value !== undefined ? initialText(rest.value) : typed;
  const count = codePointLength(text);
  const wired = useFieldControl({
    ...rest,
    "aria-describedby": maxChars ? cx(rest["aria-describedby"], counterId) : rest["aria-describedby"],
  });

  function change(event: ChangeEvent<HTMLTextAreaElement>) {
    setTyped(event.target.value);
    onChange?.(event);
  }

  const textarea = (
    <textarea ref={ref} rows={rows} {...wired} onChange={change} className={cx(styles.input, styles.textarea, className)} />
  );
  if (!maxChars) return textarea;
  const numbers = { n: formatNumber(count, language), max: formatNumber(maxChars, language) };
  return (
    <>
      {textarea}
      <div className={styles.counterRow}>
        <span className={styles.counter} data-over={count > maxChars} aria-hidden="true" data-part="counter">
          {/* Digits and a slash read the same in both languages; the long form below is translated. */}
          {`${numbers.n} / ${numbers.max}`}
        </span>
        <span id={counterId} className="visually-hidden">
          {t("ui.counter.long", numbers)}
        </span>
      </div>
    </>
  );
}
