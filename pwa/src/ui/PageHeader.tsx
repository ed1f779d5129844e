// The top of a screen: its <h1>, a subtitle, the screen's main actions and an optional way back.
import type { ReactNode } from "react";
import { cx } from "./cx";
import styles from "./PageHeader.module.css";

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Buttons for the screen's main actions. */
  actions?: ReactNode;
  /** A link back (e.g. <Link to="/assets/">← Activos</Link>), shown above the title. */
  back?: ReactNode;
  /** Content after the title block (badges, meta). */
  children?: ReactNode;
  className?: string;
}

export function PageHeader({ title, subtitle, actions, back, children, className }: PageHeaderProps) {
  return (
    <header className={cx(styles.header, className)}>
      <div className={styles.text}>
        {back && <div className={styles.back}>{back}</div>}
        <h1 className={styles.title}>{title}</h1>
        {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        {children}
      </div>
      {actions && <div className={styles.actions}>{actions}</div>}
    </header>
  );
}
