// Button and IconButton: every clickable action of the app. Variants and sizes are props; a busy
// button keeps its width, ignores clicks and says aria-busy. `buttonClass` gives the same look to a
// link (TanStack Router's <Link className={buttonClass({ variant: "primary" })}>).
import type { ButtonHTMLAttributes, MouseEvent, ReactNode, Ref } from "react";
import { cx } from "./cx";
import styles from "./Button.module.css";
import { Spinner } from "./Spinner";

export type ButtonVariant = "primary" | "secondary" | "ghost" | "danger" | "danger-outline";
export type ButtonSize = "sm" | "md" | "lg";

export interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Full width. */
  block?: boolean;
}

/** The class names of a button look, for elements that are not a <Button> (links). */
export function buttonClass({ variant = "secondary", size = "md", block = false }: ButtonLook = {}, extra?: string): string {
  return cx(styles.button, styles[variant], size !== "md" && styles[size], block && styles.block, extra);
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement>, ButtonLook {
  /** Busy: shows a spinner, keeps the width, ignores clicks (and form submission), aria-busy. */
  loading?: boolean;
  /** Text shown while loading ("Guardando…"); the button is as wide as the wider of both texts. */
  loadingText?: ReactNode;
  /** Leading icon (a lucide icon at size 16); replaced by the spinner while loading. */
  icon?: ReactNode;
  /** Trailing icon. */
  iconEnd?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

export function Button({
  variant,
  size,
  block,
  loading = false,
  loadingText,
  icon,
  iconEnd,
  className,
  children,
  type = "button",
  onClick,
  ref,
  ...rest
}: ButtonProps) {
  const overlay = loading && !icon && loadingText === undefined;
  function click(event: MouseEvent<HTMLButtonElement>) {
    if (loading) {
      // aria-disabled (not disabled) keeps the focus on the button; a click must still do nothing.
      event.preventDefault();
      return;
    }
    onClick?.(event);
  }
  return (
    <button
      ref={ref}
      type={type}
      className={buttonClass({ variant, size, block }, className)}
      aria-busy={loading || undefined}
      aria-disabled={loading || undefined}
      onClick={click}
      {...rest}
    >
      {icon && (loading ? <Spinner decorative size="sm" /> : <span className={styles.iconSlot} aria-hidden="true">{icon}</span>)}
      <span className={cx(styles.labels, overlay && styles.transparent)}>
        <span className={cx(loading && loadingText !== undefined && styles.hidden)} aria-hidden={(loading && loadingText !== undefined) || undefined}>
          {children}
        </span>
        {loadingText !== undefined && (
          <span className={cx(!loading && styles.hidden)} aria-hidden={!loading || undefined}>
            {loadingText}
          </span>
        )}
      </span>
      {iconEnd && <span aria-hidden="true">{iconEnd}</span>}
      {overlay && (
        <span className={styles.overlay}>
          <Spinner decorative size="sm" />
        </span>
      )}
    </button>
  );
}

export interface IconButtonProps extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, "children">, ButtonLook {
  /** The accessible name (and tooltip title): what the button does. */
  label: string;
  /** The icon (a lucide icon at size 16 or 18). */
  icon: ReactNode;
  loading?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

export function IconButton({ label, icon, variant = "ghost", size, loading = false, className, type = "button", onClick, title, ref, ...rest }: IconButtonProps) {
  return (
    <button
      ref={ref}
      type={type}
      aria-label={label}
      title={title ?? label}
      className={buttonClass({ variant, size }, cx(styles.icon, className))}
      aria-busy={loading || undefined}
      aria-disabled={loading || undefined}
      onClick={(event) => {
        if (loading) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      {...rest}
    >
      {loading ? <Spinner decorative size="sm" /> : <span className={styles.iconSlot} aria-hidden="true">{icon}</span>}
    </button>
  );
}
