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
}

export function EmptyState({ icon, title, text, action, headingLevel = 2, plain = false, className, ...rest }: EmptyStateProps) {
  return (
    <div {...rest} className={cx(styles.empty, plain && styles.plain, className)}>
      {icon && (
        <span className={styles.icon} aria-hidden="true">
          {icon}
        </span>
      )}
      <Heading level={headingLevel} className={styles.title}>
        {title}
      </Heading>
      {text && <p className={styles.text}>{text}</p>}
      {action && <div className={styles.action}>{action}</div>}
    </div>
  );
}
