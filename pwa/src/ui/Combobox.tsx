// A searchable picker for long lists (countries, provinces, currencies, categories), the ARIA 1.2
// combobox pattern: an input (role combobox) that filters a listbox as one types, ignoring accents
// and case ("peru" finds "Perú"). Keys: ArrowDown/ArrowUp open and move, Home/End and
// PageUp/PageDown jump (while open), Enter picks, Escape closes (a second Escape restores the
// text), Tab leaves without picking. The listed option is the active descendant, so focus stays in
// the input. Emptying the text and leaving clears the value. A value that is none of the options
// (an asset deleted on another device, a code retired since) is shown as not available rather than
// as an empty field that would still save it; picking an option or clearing the text replaces it.
//
// Controlled: value (an option's value, or "") + onChange(value), so a Controller's field spreads:
// <Controller name="country" render={({ field }) => <Combobox {...field} options={countries} />} />.
import { Check, ChevronDown } from "lucide-react";
import { useEffect, useId, useMemo, useState, type KeyboardEvent, type Ref } from "react";
import { useTranslation } from "react-i18next";
import { formatNumber } from "../i18n/format";
import { useLanguage } from "../i18n/useLanguage";
import { IconButton } from "./Button";
import styles from "./Combobox.module.css";
import { cx } from "./cx";
import { useField, useFieldControl } from "./Field";
import inputStyles from "./Input.module.css";
import { filterByText, foldText } from "./search";

export interface ComboboxOption {
  value: string;
  label: string;
  /** Shown at the end of the option, e.g. the code "EUR". Also found by typing. */
  hint?: string;
  /** Other words that find it. */
  keywords?: readonly string[];
  disabled?: boolean;
}

export interface ComboboxProps {
  options: readonly ComboboxOption[];
  value?: string | undefined;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  /** Also submits with a plain <form> (a hidden input carries the value). */
  name?: string;
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
  /** Shown when nothing matches (default "Sin resultados"). */
  emptyText?: string;
  /** Shown for a value that is none of the options, once there are options (default "No
   * disponible"); while the options are still empty (loading) the field stays empty. */
  unavailableText?: string;
  id?: string;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  className?: string;
  ref?: Ref<HTMLInputElement>;
  "data-testid"?: string;
}

const PAGE = 10;

export function Combobox({ options, value = "", onChange, onBlur, name, placeholder, disabled, required, emptyText, unavailableText, className, ref, ...rest }: ComboboxProps) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const field = useField();
  const listId = useId();
  const wired = useFieldControl({
    id: rest.id,
    "aria-describedby": rest["aria-describedby"],
    "aria-invalid": rest["aria-invalid"],
    "aria-required": required || undefined,
    "aria-labelledby": rest["aria-labelledby"],
  });
  // What the reader typed since the list opened; null shows the selected option's label.
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);

  const searchable = useMemo(() => options.map((o) => ({ ...o, keywords: [...(o.keywords ?? []), ...(o.hint ? [o.hint] : []), o.value] })), [options]);
  const folded = useMemo(() => searchable.map((o) => foldText(o.label)), [searchable]);
  const filtered = useMemo(() => filterByText(searchable, query ?? "", folded), [searchable, query, folded]);
  const selected = options.find((o) => o.value === value);
  const shown = selected?.label ?? (value !== "" && options.length > 0 ? (unavailableText ?? t("ui.combobox.unavailable")) : "");
  const activeOption = open ? filtered[active] : undefined;
  const optionId = (index: number) => `${listId}-option-${index}`;

  useEffect(() => {
    if (!open) return;
    const element = document.getElementById(`${listId}-option-${active}`);
    element?.scrollIntoView?.({ block: "nearest" });
  }, [open, active, listId]);

  function openList(at?: "selected" | "first" | "last") {
    const list = query === null ? searchable : filtered;
    const selectedIndex = list.findIndex((o) => o.value === value);
    setActive(at === "last" ? Math.max(list.length - 1, 0) : at === "first" || selectedIndex < 0 ? 0 : selectedIndex);
    setOpen(true);
  }

  function close() {
    setOpen(false);
    setQuery(null);
  }

  function pick(option: ComboboxOption | undefined) {
    if (!option || option.disabled) return;
    if (option.value !== value) onChange?.(option.value);
    close();
  }

  function move(to: number) {
    setActive(Math.min(Math.max(to, 0), Math.max(filtered.length - 1, 0)));
  }

  function keyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case "ArrowDown":
        event.preventDefault();
        if (!open) openList(event.altKey ? "selected" : undefined);
        else if (!event.altKey) move(active + 1);
        break;
      case "ArrowUp":
        event.preventDefault();
        if (!open) openList(selected ? "selected" : "last");
        else move(active - 1);
        break;
      case "Home":
      case "End":
        if (open) {
          event.preventDefault();
          move(event.key === "Home" ? 0 : filtered.length - 1);
        }
        break;
      case "PageDown":
      case "PageUp":
        if (open) {
          event.preventDefault();
          move(active + (event.key === "PageDown" ? PAGE : -PAGE));
        }
        break;
      case "Enter":
        if (open) {
          event.preventDefault();
          pick(activeOption);
        }
        break;
      case "Escape":
        if (open) {
          event.preventDefault();
          setOpen(false);
        } else if (query !== null) {
          event.preventDefault();
          setQuery(null);
        }
        break;
      case "Tab":
        if (open) close();
        break;
    }
  }

  return (
    <div className={cx(styles.combobox, className)} data-testid={rest["data-testid"]}>
      <input
        ref={ref}
        type="text"
        role="combobox"
        {...wired}
        aria-label={rest["aria-label"]}
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={open && filtered.length > 0 ? listId : undefined}
        aria-activedescendant={activeOption ? optionId(active) : undefined}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        disabled={disabled}
        placeholder={placeholder ?? t("ui.combobox.placeholder")}
        className={cx(inputStyles.input, styles.input)}
        value={query ?? shown}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={keyDown}
        onClick={() => (open ? setOpen(false) : openList())}
        onBlur={() => {
          if (query !== null && query.trim() === "" && value !== "") onChange?.("");
          close();
          onBlur?.();
        }}
      />
      <IconButton
        label={t("ui.combobox.showOptions")}
        icon={<ChevronDown size={16} />}
        size="sm"
        tabIndex={-1}
        disabled={disabled}
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={open && filtered.length > 0 ? listId : undefined}
        onMouseDown={(event) => event.preventDefault()}
        onClick={(event) => {
          const input = event.currentTarget.parentElement?.querySelector("input");
          input?.focus();
          if (open) setOpen(false);
          else openList();
        }}
      />
      {name && <input type="hidden" name={name} value={value} />}
      {open && filtered.length > 0 && (
        <ul
          id={listId}
          role="listbox"
          className={styles.listbox}
          aria-labelledby={rest["aria-label"] ? undefined : (rest["aria-labelledby"] ?? field?.labelId)}
          aria-label={rest["aria-label"]}
        >
          {filtered.map((option, index) => (
            <li
              key={option.value}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              aria-disabled={option.disabled || undefined}
              data-active={index === active}
              data-value={option.value}
              className={styles.option}
              onMouseDown={(event) => event.preventDefault()}
              onMouseMove={() => index !== active && setActive(index)}
              onClick={() => pick(option)}
            >
              {option.value === value && (
                <span className={styles.check} aria-hidden="true">
                  <Check size={14} />
                </span>
              )}
              <span className={styles.optionLabel}>{option.label}</span>
              {option.hint && <span className={styles.optionHint}>{option.hint}</span>}
            </li>
          ))}
        </ul>
      )}
      {open && filtered.length === 0 && (
        <div className={cx(styles.listbox, styles.empty)} aria-hidden="true">
          {emptyText ?? t("ui.noResults")}
        </div>
      )}
      <span role="status" className="visually-hidden">
        {open && query !== null
          ? filtered.length === 0
            ? (emptyText ?? t("ui.noResults"))
            : t("ui.combobox.results", { count: filtered.length, n: formatNumber(filtered.length, language) })
          : ""}
      </span>
    </div>
  );
}
