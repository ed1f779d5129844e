import { ChevronDown, type LucideIcon } from "lucide-react";
import { useId, type ReactNode, type SelectHTMLAttributes } from "react";
import { cx } from "../ui/cx";
import styles from "./SelectField.module.css";

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  label: string;
  icon: LucideIcon;
  /** "wide": takes the room the top bar leaves (the workspace switcher). */
  width?: "auto" | "wide";
  /**
   * The chosen option's text, drawn whole over the select (wrapping onto more lines) instead of the
   * select's own one line, which a phone cuts: a workspace's name. The select stays what is clicked,
   * focused and read by assistive tech; this copy is hidden from it.
   */
  shown?: ReactNode;
}

/** A compact native <select> for the bars: leading icon, chevron, and a label kept for assistive tech. */
export function SelectField({ label, icon: Icon, width = "auto", shown, className, children, ...rest }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={cx(styles.field, width === "wide" && styles.wide, shown != null && styles.whole, className)}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      {shown != null && (
        <span className={styles.shown} aria-hidden="true" data-slot="shown">
          {shown}
        </span>
      )}
      <Icon className={styles.icon} size={16} aria-hidden="true" />
      <select id={id} title={label} className={styles.select} {...rest}>
        {children}
      </select>
      <ChevronDown className={styles.chevron} size={14} aria-hidden="true" />
    </div>
  );
}
