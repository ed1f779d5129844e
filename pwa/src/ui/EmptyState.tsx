// What a list or a screen shows when there is nothing yet: an icon, a title, a sentence and the
// action that fills it ("Añadir activo").
import type { HTMLAttributes, ReactNode } from "react";
import { cx } from "./cx";
import styles from "./EmptyState.module.css";
import { Heading, type HeadingLevel } from "./Heading";

export interface EmptyStateProps extends Omit<HTMLAttributes<HTMLDivElement>, "title"> {
  /** A lucide icon at size 24. */
  icon?: ReactNode;
  title: ReactNode;
  text?: ReactNode;
  /** A Button (or a link with buttonClass). */
  action?: ReactNode;
  headingLevel?: HeadingLevel;
  /** No dashed frame (inside a Card or a table). */
  plain?: boolean;
  /** The heading's id, to label the block by it (aria-labelledby; e.g. with role="alert"). */
  headingId?: string;
  /** "danger": the icon in the danger colours (a failure rather than an empty place). */
  tone?: "neutral" | "danger";
  /** Technical details (an error's message), shown preformatted below everything else. */
  details?: ReactNode;
  detailsId?: string;
  /** Shown below the action (e.g. the button that shows the details). */
  children?: ReactNode;
}

export function EmptyState({
  icon,
  title,
  text,
  action,
  headingLevel = 2,
  plain = false,
  headingId,
  tone = "neutral",
  details,
  detailsId,
  children,
  className,
  ...rest
}: EmptyStateProps) {
  return (
    <div {...rest} className={cx(styles.empty, plain && styles.plain, className)}>
      {icon && (
        <span className={cx(styles.icon, tone === "danger" && styles.danger)} aria-hidden="true">
          {icon}
        </span>
      )}
      <Heading level={headingLevel} id={headingId} className={styles.title}>
        {title}
      </Heading>
      {text && <p className={styles.text}>{text}</p>}
      {action && <div className={styles.action}>{action}</div>}
      {children}
      {details != null && details !== false && (
        <pre id={detailsId} className={styles.details}>
          {details}
        </pre>
      )}
    </div>
  );
}
