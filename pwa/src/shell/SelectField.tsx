import { ChevronDown, type LucideIcon } from "lucide-react";
import { useId, type SelectHTMLAttributes } from "react";
import { cx } from "../ui/cx";
import styles from "./SelectField.module.css";

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  label: string;
  icon: LucideIcon;
  /** "wide": takes the room the top bar leaves (the workspace switcher), its text cut with an ellipsis. */
  width?: "auto" | "wide";
}

/** A compact native <select> for the bars: leading icon, chevron, and a label kept for assistive tech. */
export function SelectField({ label, icon: Icon, width = "auto", className, children, ...rest }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={cx(styles.field, width === "wide" && styles.wide, className)}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Icon className={styles.icon} size={16} aria-hidden="true" />
      <select id={id} title={label} className={styles.select} {...rest}>
        {children}
      </select>
      <ChevronDown className={styles.chevron} size={14} aria-hidden="true" />
    </div>
  );
}
