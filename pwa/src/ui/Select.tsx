// A choice among a short, fixed list (gender, role, frequency) on Radix UI: a button showing the
// value and a list with arrow-key, type-ahead, Home/End navigation. For long or searchable lists
// (countries, currencies) use Combobox. Inside a Field it is labelled and described.
//
// Controlled with `value` and `onChange(value)`, so a react-hook-form Controller's field spreads
// onto it: <Controller name="role" render={({ field }) => <Select {...field} options={roles} />} />.
import { Select as RadixSelect } from "radix-ui";
import { Check, ChevronDown } from "lucide-react";
import type { Ref } from "react";
import { useTranslation } from "react-i18next";
import { cx } from "./cx";
import { useFieldControl } from "./Field";
import inputStyles from "./Input.module.css";
import styles from "./Overlay.module.css";

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface SelectProps {
  options: readonly SelectOption[];
  /** The selected value; "" (or undefined) shows the placeholder. */
  value?: string | undefined;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  /** Also submits with a plain <form> (a hidden native select carries it). */
  name?: string;
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
  id?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean | "true" | "false";
  "aria-label"?: string;
  className?: string;
  ref?: Ref<HTMLButtonElement>;
  /** data-* attributes (data-testid, …) go onto the button. */
  [data: `data-${string}`]: string | undefined;
}

export function Select({ options, value, onChange, onBlur, name, placeholder, disabled, required, className, ref, ...rest }: SelectProps) {
  const data = Object.fromEntries(Object.entries(rest).filter(([key]) => key.startsWith("data-")));
  const { t } = useTranslation();
  const wired = useFieldControl({
    id: rest.id,
    "aria-describedby": rest["aria-describedby"],
    "aria-invalid": rest["aria-invalid"],
    "aria-required": required || undefined,
  });
  return (
    <RadixSelect.Root value={value ?? ""} onValueChange={(next) => onChange?.(next)} name={name} disabled={disabled} required={required}>
      <RadixSelect.Trigger
        ref={ref}
        {...wired}
        aria-label={rest["aria-label"]}
        {...data}
        onBlur={onBlur}
        className={cx(inputStyles.input, styles.selectTrigger, className)}
      >
        <span className={styles.selectValue}>
          <RadixSelect.Value placeholder={placeholder ?? t("ui.select.placeholder")} />
        </span>
        <RadixSelect.Icon className={styles.chevron}>
          <ChevronDown size={16} aria-hidden="true" />
        </RadixSelect.Icon>
      </RadixSelect.Trigger>
      <RadixSelect.Portal>
        <RadixSelect.Content className={styles.selectContent} position="popper" sideOffset={4} collisionPadding={8}>
          <RadixSelect.Viewport>
            {options.map((option) => (
              <RadixSelect.Item key={option.value} value={option.value} disabled={option.disabled} className={styles.selectItem}>
                <RadixSelect.ItemIndicator className={styles.selectCheck}>
                  <Check size={14} aria-hidden="true" />
                </RadixSelect.ItemIndicator>
                <RadixSelect.ItemText>{option.label}</RadixSelect.ItemText>
              </RadixSelect.Item>
            ))}
          </RadixSelect.Viewport>
        </RadixSelect.Content>
      </RadixSelect.Portal>
    </RadixSelect.Root>
  );
}
