// One choice among a few options shown at once, on Radix UI: arrow keys move and select, Tab leaves
// the group. Inside <Field group> the Field's label names the group. Controlled by `value` +
// `onChange(value)`, so a react-hook-form Controller's field spreads onto it.
import { RadioGroup as RadixRadioGroup } from "radix-ui";
import { useId, type ReactNode, type Ref } from "react";
import { cx } from "./cx";
import { useFieldControl } from "./Field";
import styles from "./Choice.module.css";

export interface RadioOption {
  value: string;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
}

export interface RadioGroupProps {
  options: readonly RadioOption[];
  value?: string | undefined;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  name?: string;
  disabled?: boolean;
  orientation?: "vertical" | "horizontal";
  id?: string;
  "aria-label"?: string;
  "aria-labelledby"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: boolean;
  required?: boolean;
  className?: string;
  ref?: Ref<HTMLDivElement>;
}

export function RadioGroup({ options, value, onChange, onBlur, name, disabled, orientation = "vertical", required, className, ref, ...rest }: RadioGroupProps) {
  const base = useId();
  const wired = useFieldControl({
    id: rest.id,
    "aria-labelledby": rest["aria-labelledby"],
    "aria-describedby": rest["aria-describedby"],
    "aria-invalid": rest["aria-invalid"],
    "aria-required": required || undefined,
  });
  return (
    <RadixRadioGroup.Root
      ref={ref}
      {...wired}
      aria-label={rest["aria-label"]}
      value={value ?? ""}
      onValueChange={(next) => onChange?.(next)}
      onBlur={onBlur}
      name={name}
      disabled={disabled}
      required={required}
      orientation={orientation}
      className={cx(styles.radioGroup, orientation === "horizontal" && styles.horizontal, className)}
    >
      {options.map((option, index) => {
        const itemId = `${base}-${index}`;
        return (
          <div key={option.value} className={styles.row}>
            <RadixRadioGroup.Item
              id={itemId}
              value={option.value}
              disabled={option.disabled}
              className={styles.radio}
              aria-describedby={option.description ? `${itemId}-description` : undefined}
            >
              <RadixRadioGroup.Indicator className={styles.radioDot} />
            </RadixRadioGroup.Item>
            <span className={styles.text}>
              <label htmlFor={itemId} className={styles.label}>
                {option.label}
              </label>
              {option.description && (
                <span id={`${itemId}-description`} className={styles.description}>
                  {option.description}
                </span>
              )}
            </span>
          </div>
        );
      })}
    </RadixRadioGroup.Root>
  );
}
