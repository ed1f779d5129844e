// A surface grouping related content. With a title it is a labelled <section> (a landmark region
// screen-reader users can jump to) with an optional icon, description and actions.
import { useId, type HTMLAttributes, type ReactNode, type Ref } from "react";
import { cx } from "./cx";
import styles from "./Card.module.css";
import { Heading, type HeadingLevel } from "./Heading";

export interface CardProps extends Omit<HTMLAttributes<HTMLElement>, "title"> {
  ref?: Ref<HTMLElement>;
  title?: ReactNode;
  description?: ReactNode;
  /** A lucide icon (size 20) shown in a disc before the title. */
  icon?: ReactNode;
  /** Buttons at the end of the head. */
  actions?: ReactNode;
  /** Heading level of the title (default 2). */
  headingLevel?: HeadingLevel;
  /** "danger" for a danger zone (red border and title). */
  tone?: "default" | "danger";
  padding?: "normal" | "compact" | "none";
}

export function Card({ title, description, icon, actions, headingLevel = 2, tone = "default", padding = "normal", className, children, ...rest }: CardProps) {
  const titleId = useId();
  // Either element is an HTMLElement: typed as section, so the ref is one.
  const Tag = (title ? "section" : "div") as "section";
  return (
    <Tag
      {...rest}
      aria-labelledby={title ? (rest["aria-labelledby"] ?? titleId) : rest["aria-labelledby"]}
      className={cx(styles.card, tone === "danger" && styles.danger, padding === "compact" && styles.compact, padding === "none" && styles.flush, className)}
    >
      {(title || actions) && (
        <div className={styles.head}>
          {icon && (
            <span className={styles.icon} aria-hidden="true">
              {icon}
            </span>
          )}
          <div className={styles.headText}>
            {title && (
              <Heading level={headingLevel} id={titleId} className={styles.title}>
                {title}
              </Heading>
            )}
            {description && <p className={styles.description}>{description}</p>}
          </div>
          {actions && <div className={styles.actions}>{actions}</div>}
        </div>
      )}
      {children}
    </Tag>
  );
}
