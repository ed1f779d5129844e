// The state of an input whose text is not its value (DecimalInput, DateInput): the reader types
// "1.234,5", the form holds "1234.5". While focused the text is as typed (or the value made
// editable); away from focus a valid value is shown formatted. Text that does not parse reaches
// the form AS TYPED (so the form's schema refuses it: never a stale or silently rounded value) and
// its error is reported to the enclosing Field once the reader has left the input.
// Entering the input with Tab selects its whole text (the browser's doing), so typing replaces it;
// the switch to the editable text would drop that selection, so it is selected again.
import { useEffect, useLayoutEffect, useRef, useState, type FocusEvent } from "react";
import { useTranslation } from "react-i18next";
import { useField } from "./Field";

export interface ParseError {
  key: string;
  params?: Record<string, unknown>;
}

export interface ParsedInputOptions {
  value: string | undefined;
  onChange: ((value: string) => void) | undefined;
  onBlur: ((event: FocusEvent<HTMLInputElement>) => void) | undefined;
  onFocus: ((event: FocusEvent<HTMLInputElement>) => void) | undefined;
  /** Text → value, or an error (with an i18n key). */
  parse: (text: string) => { ok: true; value: string } | { ok: false; error: ParseError };
  /** Whether a value is a valid one (else it is text the reader typed, shown as is). */
  isValue: (value: string) => boolean;
  /** A valid value, as shown away from focus. */
  display: (value: string) => string;
  /** A valid value, as text to edit. */
  editable: (value: string) => string;
  onParseError?: ((error: ParseError | null) => void) | undefined;
}

export function useParsedInput({ value, onChange, onBlur, onFocus, parse, isValue, display, editable, onParseError }: ParsedInputOptions) {
  const { t } = useTranslation();
  const field = useField();
  const current = value ?? "";
  const [text, setText] = useState(() => (current === "" || isValue(current) ? editable(current) : current));
  const [synced, setSynced] = useState(current);
  const [error, setError] = useState<ParseError | null>(null);
  const [focused, setFocused] = useState(false);
  const [touched, setTouched] = useState(false);
  const reselect = useRef<HTMLInputElement | null>(null);
  useLayoutEffect(() => {
    const input = reselect.current;
    reselect.current = null;
    if (input && input === input.ownerDocument.activeElement) input.select();
  });

  // The value changed from outside (a form reset, setValue): show it.
  if (current !== synced) {
    setSynced(current);
    setText(current === "" || isValue(current) ? editable(current) : current);
    setError(null);
  }

  const reportError = field?.reportError;
  const translate = t as unknown as (key: string, options?: Record<string, unknown>) => string;
  const shownError = touched && error ? translate(error.key, error.params) : undefined;
  useEffect(() => {
    reportError?.(shownError);
  }, [reportError, shownError]);
  useEffect(() => () => reportError?.(undefined), [reportError]);

  const shown = focused || error || current === "" || !isValue(current) ? text : display(current);

  return {
    value: shown,
    invalid: Boolean(touched && error),
    onChange(event: { target: { value: string } }) {
      const next = event.target.value;
      setText(next);
      const result = parse(next);
      const emitted = result.ok ? result.value : next;
      const nextError = result.ok ? null : result.error;
      setError(nextError);
      onParseError?.(nextError);
      setSynced(emitted);
      if (emitted !== current) onChange?.(emitted);
    },
    onFocus(event: FocusEvent<HTMLInputElement>) {
      setFocused(true);
      if (!error && (current === "" || isValue(current))) {
        const next = editable(current);
        const input = event.currentTarget;
        const all = input.value.length > 0 && input.selectionStart === 0 && input.selectionEnd === input.value.length;
        if (all && next !== input.value) reselect.current = input;
        setText(next);
      }
      onFocus?.(event);
    },
    onBlur(event: FocusEvent<HTMLInputElement>) {
      setFocused(false);
      setTouched(true);
      onBlur?.(event);
    },
  };
}
