// Field: a label, an optional hint, an error and a required mark around ONE control, and the wiring
// assistive technology needs: the control gets the id the label points to, aria-describedby (hint
// and error), aria-invalid while there is an error, and aria-required.
//
// The kit's inputs (TextInput, TextArea, CodeInput, DecimalInput, Select, Combobox, …) read that
// wiring from context, so a form writes:
//
//   <Field label={t("x.name")} error={errors.name?.message} required>
//     <TextInput {...register("name")} />
//   </Field>
//
// Any other control takes it through a render prop: <Field label="…">{(control) => <input {...control} />}</Field>.
// Controls that are a group of options (RadioGroup) use `group`: the label is not a <label> but
// names the group through aria-labelledby.
import { createContext, use, useId, useState, type ReactNode } from "react";
import { cx } from "./cx";
import styles from "./Field.module.css";

/** The attributes Field gives its control. */
export interface FieldControlProps {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  "aria-required"?: true;
  "aria-labelledby"?: string;
}

interface FieldContextValue {
  control: FieldControlProps;
  labelId: string;
  invalid: boolean;
  /**
   * A control reports an error of its own (DecimalInput: "not a number"); Field shows it instead
   * of the form's error until the control reports undefined again.
   */
  reportError: (message: string | undefined) => void;
}

const FieldContext = createContext<FieldContextValue | null>(null);

export interface FieldProps {
  label: ReactNode;
  hint?: ReactNode;
  /** The error text (already translated); shown below the control and linked to it. */
  error?: string | undefined;
  /** Shows the required mark and sets aria-required on the control (validation stays in the schema). */
  required?: boolean;
  /** The label is read by assistive technology but not shown. */
  labelHidden?: boolean;
  /** The control is a group (radio group): named through aria-labelledby, not <label for>. */
  group?: boolean;
  /** Use this id for the control instead of a generated one. */
  id?: string;
  className?: string;
  children: ReactNode | ((control: FieldControlProps) => ReactNode);
}

export function fieldIds(id: string) {
  return { label: `${id}-label`, hint: `${id}-hint`, error: `${id}-error` };
}

export function Field({ label, hint, error: formError, required = false, labelHidden = false, group = false, id, className, children }: FieldProps) {
  const generated = useId();
  const [controlError, setControlError] = useState<string | undefined>();
  const error = controlError ?? formError;
  const controlId = id ?? generated;
  const ids = fieldIds(controlId);
  const describedBy = [hint ? ids.hint : null, error ? ids.error : null].filter(Boolean).join(" ") || undefined;
  const control: FieldControlProps = {
    id: controlId,
    ...(describedBy ? { "aria-describedby": describedBy } : {}),
    ...(error ? { "aria-invalid": true as const } : {}),
    ...(required ? { "aria-required": true as const } : {}),
    ...(group ? { "aria-labelledby": ids.label } : {}),
  };
  const labelContent = (
    <>
      {label}
      {required && (
        <span className={styles.required} aria-hidden="true">
          *
        </span>
      )}
    </>
  );
  const labelClass = cx(styles.label, labelHidden && "visually-hidden");
  return (
    <div className={cx(styles.field, className)} data-invalid={error ? true : undefined}>
      {group ? (
        <span id={ids.label} className={labelClass}>
          {labelContent}
        </span>
      ) : (
        <label id={ids.label} htmlFor={controlId} className={labelClass}>
          {labelContent}
        </label>
      )}
      <FieldContext value={{ control, labelId: ids.label, invalid: Boolean(error), reportError: setControlError }}>
        {typeof children === "function" ? children(control) : children}
      </FieldContext>
      {hint && (
        <p id={ids.hint} className={styles.hint} data-part="hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={ids.error} className={styles.error} data-part="error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The enclosing Field's wiring, or null outside a Field. */
export function useField(): FieldContextValue | null {
  return use(FieldContext);
}

/**
 * Merges the enclosing Field's wiring into a control's own props: the Field's id wins unless the
 * control has one, aria-describedby lists both, aria-invalid/required are set when either says so.
 */
export function useFieldControl<P extends { id?: string | undefined; "aria-describedby"?: string | undefined; "aria-invalid"?: unknown; "aria-required"?: unknown; "aria-labelledby"?: string | undefined }>(
  props: P,
): P & { id: string | undefined } {
  const field = useField();
  if (!field) return { ...props, id: props.id };
  const { control } = field;
  const describedBy = [props["aria-describedby"], control["aria-describedby"]].filter(Boolean).join(" ") || undefined;
  return {
    ...props,
    id: props.id ?? control.id,
    "aria-describedby": describedBy,
    "aria-invalid": props["aria-invalid"] ?? control["aria-invalid"],
    "aria-required": props["aria-required"] ?? control["aria-required"],
    "aria-labelledby": props["aria-labelledby"] ?? control["aria-labelledby"],
  };
}
