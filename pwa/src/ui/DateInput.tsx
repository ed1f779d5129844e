// A calendar date typed day first ("31/12/2024", both languages write it so) while the form holds
// "2024-12-31". Also accepts "31-12-2024", "31.12.2024", "31122024" and a pasted ISO date; see
// date.ts. An impossible date reaches the form as typed (the schema refuses it) and "Escribe una
// fecha válida…" replaces the form's error in the enclosing Field. Controlled (value + onChange).
import { CalendarDays } from "lucide-react";
import type { FocusEvent, InputHTMLAttributes, Ref } from "react";
import { useTranslation } from "react-i18next";
import { formatDateText, parseDateText } from "./date";
import { TextInput } from "./TextInput";
import { useParsedInput } from "./useParsedInput";

const ISO_DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

export interface DateInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "defaultValue" | "onChange" | "type"> {
  /** "YYYY-MM-DD" or "". */
  value?: string | undefined;
  onChange?: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
}

export function DateInput({ value, onChange, onBlur, onFocus, placeholder, ...rest }: DateInputProps) {
  const { t } = useTranslation();
  const parsed = useParsedInput({
    value,
    onChange,
    onBlur: onBlur as ((event: FocusEvent<HTMLInputElement>) => void) | undefined,
    onFocus: onFocus as ((event: FocusEvent<HTMLInputElement>) => void) | undefined,
    parse: parseDateText,
    isValue: (v) => ISO_DATE.test(v),
    display: formatDateText,
    editable: formatDateText,
  });
  return (
    <TextInput
      autoComplete="off"
      spellCheck={false}
      inputMode="numeric"
      placeholder={placeholder ?? t("ui.date.hint")}
      {...rest}
      {...(parsed.invalid ? { "aria-invalid": true } : {})}
      value={parsed.value}
      onChange={parsed.onChange}
      onFocus={parsed.onFocus}
      onBlur={parsed.onBlur}
      end={<CalendarDays size={16} aria-hidden="true" />}
    />
  );
}
