// Placeholder shapes while content loads. They are hidden from assistive technology; the region
// that loads says so: <div aria-busy="true"> or a <Spinner> label. `Skeleton lines={3}` draws a
// paragraph; shape "title", "block" (a card or a chart) or "circle" (an avatar).
import { cx } from "./cx";
import styles from "./Skeleton.module.css";

export interface SkeletonProps {
  shape?: "text" | "title" | "block" | "circle";
  /** For shape "text": how many lines (the last one shorter). */
  lines?: number;
  className?: string;
}

export function Skeleton({ shape = "text", lines = 1, className }: SkeletonProps) {
  if (shape === "text" && lines > 1) {
    return (
      <span className={cx(styles.lines, className)} aria-hidden="true" data-skeleton="">
        {Array.from({ length: lines }, (_, i) => (
          <span key={i} className={styles.skeleton} />
        ))}
      </span>
    );
  }
  return <span className={cx(styles.skeleton, shape !== "text" && styles[shape], className)} aria-hidden="true" data-skeleton="" />;
}
