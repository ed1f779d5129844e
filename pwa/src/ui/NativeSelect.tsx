// The browser's own <select>, styled like the kit's inputs: for forms that use react-hook-form's
// register on a short list, and for compact selects in bars (language, theme, workspace) where the
// platform picker is best on phones. Inside a Field it is wired to the label, hint and error.
// `icon` adds a leading icon; `compact` the small height of the top bar; `label` (without a Field)
// names it for assistive technology only.
import { ChevronDown } from "lucide-react";
import type { ReactNode, Ref, SelectHTMLAttributes } from "react";
import { cx } from "./cx";
import { useFieldControl } from "./Field";
import inputStyles from "./Input.module.css";
import styles from "./NativeSelect.module.css";

export interface NativeSelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  /** A lucide icon at size 16 before the value. */
  icon?: ReactNode;
  /** The small height of a toolbar. */
  compact?: boolean;
  /** Names the select when no Field labels it (also its tooltip). */
  label?: string;
  /**
   * The chosen option's text, drawn whole over the select (wrapping onto more lines) instead of the
   * select's own single line, which a phone cuts: an asset's name. The select stays what is clicked,
   * focused and read by assistive tech; this copy is hidden from it. The caller knows the value
   * (react-hook-form's watch), so it passes the text.
   */
  shown?: ReactNode;
  ref?: Ref<HTMLSelectElement>;
}

export function NativeSelect({ icon, compact = false, label, shown, className, children, ref, ...rest }: NativeSelectProps) {
  const wired = useFieldControl(rest);
  return (
    <span className={cx(styles.wrap, shown != null && styles.whole, className)}>
      {shown != null && (
        <span className={cx(inputStyles.input, styles.shown, icon != null && styles.withIcon)} aria-hidden="true" data-slot="shown">
          {shown}
        </span>
      )}
      {icon && (
        <span className={styles.icon} aria-hidden="true">
          {icon}
        </span>
      )}
      <select
        ref={ref}
        aria-label={label}
        title={label}
        {...wired}
        className={cx(inputStyles.input, styles.select, icon != null && styles.withIcon, compact && styles.compact)}
      >
        {children}
      </select>
      <span className={styles.chevron} aria-hidden="true">
        <ChevronDown size={14} />
      </span>
    </span>
  );
}
