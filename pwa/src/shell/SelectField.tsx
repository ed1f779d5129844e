import { ChevronDown, type LucideIcon } from "lucide-react";
import { useId, type SelectHTMLAttributes } from "react";

interface SelectFieldProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, "id"> {
  label: string;
  icon: LucideIcon;
}

/** A compact native <select> for the top bar: leading icon, chevron, and a label kept for assistive tech. */
export function SelectField({ label, icon: Icon, className, children, ...rest }: SelectFieldProps) {
  const id = useId();
  return (
    <div className={["select-field", className].filter(Boolean).join(" ")}>
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <Icon className="select-field-icon" size={16} aria-hidden="true" />
      <select id={id} title={label} {...rest}>
        {children}
      </select>
      <ChevronDown className="select-field-chevron" size={14} aria-hidden="true" />
    </div>
  );
}
