// A search box for lists: a search icon, a clear button once there is text, Escape clears.
// Controlled: value + onChange(text). Named "Buscar" unless a Field or aria-label names it.
import { Search, X } from "lucide-react";
import { useRef, type InputHTMLAttributes, type KeyboardEvent, type Ref } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "./Button";
import { useField } from "./Field";
import { TextInput } from "./TextInput";

export interface SearchInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "type"> {
  value: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
}

export function SearchInput({ value, onChange, placeholder, onKeyDown, ref, ...rest }: SearchInputProps) {
  const { t } = useTranslation();
  const inField = useField() !== null;
  const inner = useRef<HTMLInputElement | null>(null);
  function setRef(element: HTMLInputElement | null) {
    inner.current = element;
    if (typeof ref === "function") ref(element);
    else if (ref) ref.current = element;
  }
  return (
    <TextInput
      ref={setRef}
      type="search"
      role="searchbox"
      autoComplete="off"
      spellCheck={false}
      enterKeyHint="search"
      aria-label={inField || rest["aria-labelledby"] ? rest["aria-label"] : (rest["aria-label"] ?? t("ui.search.label"))}
      placeholder={placeholder ?? t("ui.search.placeholder")}
      {...rest}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
        if (event.key === "Escape" && value !== "") {
          event.preventDefault();
          onChange("");
        }
        onKeyDown?.(event);
      }}
      start={<Search size={16} />}
      end={
        value !== "" ? (
          <IconButton
            size="sm"
            label={t("ui.clear")}
            icon={<X size={14} />}
            onClick={() => {
              onChange("");
              inner.current?.focus();
            }}
          />
        ) : undefined
      }
    />
  );
}
