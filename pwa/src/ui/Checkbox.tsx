// Checkbox and Switch with their label (and an optional description), on Radix UI. Both are
// controlled by `checked` + `onCheckedChange(boolean)`; with react-hook-form use a Controller:
// <Controller name="agree" render={({ field }) => <Checkbox label="…" checked={field.value} onCheckedChange={field.onChange} />} />.
// A Switch is for a setting that applies at once; a Checkbox for a choice submitted with a form.
import { Checkbox as RadixCheckbox, Switch as RadixSwitch } from "radix-ui";
import { Check, Minus } from "lucide-react";
import { useId, type ReactNode, type Ref } from "react";
import styles from "./Choice.module.css";

interface ToggleProps {
  label: ReactNode;
  description?: ReactNode;
  onCheckedChange?: (checked: boolean) => void;
  onBlur?: () => void;
  disabled?: boolean;
  name?: string;
  id?: string;
  /** Marks the control invalid (its error is shown by the form). */
  invalid?: boolean;
  "aria-describedby"?: string;
  className?: string;
  "data-testid"?: string;
}

/** The ids and attributes a toggle's control needs: its id, and what describes it. */
interface ToggleControl {
  id: string;
  describedBy: string | undefined;
}

/** The row both toggles share: the control, then its label and optional description. */
function ToggleRow({ props, control }: { props: ToggleProps; control: (ids: ToggleControl) => ReactNode }) {
  const { label, description, id, className } = props;
  const generated = useId();
  const controlId = id ?? generated;
  const descriptionId = `${controlId}-description`;
  const describedBy = [props["aria-describedby"], description ? descriptionId : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={[styles.row, className].filter(Boolean).join(" ")}>
      {control({ id: controlId, describedBy })}
      <span className={styles.text}>
        <label htmlFor={controlId} className={styles.label}>
          {label}
        </label>
        {description && (
          <span id={descriptionId} className={styles.description}>
            {description}
          </span>
        )}
      </span>
    </div>
  );
}

export interface CheckboxProps extends ToggleProps {
  checked?: boolean | "indeterminate";
  ref?: Ref<HTMLButtonElement>;
}

export function Checkbox({ checked, onCheckedChange, onBlur, disabled, name, invalid, ref, ...props }: CheckboxProps) {
  return (
    <ToggleRow
      props={props}
      control={({ id, describedBy }) => (
        <RadixCheckbox.Root
          ref={ref}
          id={id}
          className={styles.checkbox}
          checked={checked ?? false}
          onCheckedChange={(state) => onCheckedChange?.(state === true)}
          onBlur={onBlur}
          disabled={disabled}
          name={name}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          data-testid={props["data-testid"]}
        >
          <RadixCheckbox.Indicator>
            {checked === "indeterminate" ? <Minus size={13} strokeWidth={3} aria-hidden="true" /> : <Check size={13} strokeWidth={3} aria-hidden="true" />}
          </RadixCheckbox.Indicator>
        </RadixCheckbox.Root>
      )}
    />
  );
}

export interface SwitchProps extends ToggleProps {
  checked?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function Switch({ checked, onCheckedChange, onBlur, disabled, name, invalid, ref, ...props }: SwitchProps) {
  return (
    <ToggleRow
      props={props}
      control={({ id, describedBy }) => (
        <RadixSwitch.Root
          ref={ref}
          id={id}
          className={styles.switch}
          checked={checked ?? false}
          onCheckedChange={(next) => onCheckedChange?.(next)}
          onBlur={onBlur}
          disabled={disabled}
          name={name}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          data-testid={props["data-testid"]}
        >
          <RadixSwitch.Thumb className={styles.thumb} />
        </RadixSwitch.Root>
      )}
    />
  );
}
