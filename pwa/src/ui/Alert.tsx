// An inline message in a form or a screen: the server's refusal, a notice, a success. Errors are
// role=alert (announced at once); the others role=status.
import { CircleAlert, CircleCheck, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { cx } from "./cx";
import styles from "./Alert.module.css";

export type AlertTone = "error" | "info" | "success" | "warning";

const ICONS = { error: CircleAlert, info: Info, success: CircleCheck, warning: TriangleAlert } as const;

export interface AlertProps {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  className?: string;
  /** Hide the leading icon. */
  noIcon?: boolean;
}

export function Alert({ tone = "error", title, children, className, noIcon = false }: AlertProps) {
  const Icon = ICONS[tone];
  return (
    <div className={cx(styles.alert, styles[tone], className)} role={tone === "error" ? "alert" : "status"} data-tone={tone}>
      {!noIcon && (
        <span className={styles.icon} aria-hidden="true">
          <Icon size={16} />
        </span>
      )}
      <div className={styles.body}>
        {title && <div className={styles.title}>{title}</div>}
        {children && <div>{children}</div>}
      </div>
    </div>
  );
}
