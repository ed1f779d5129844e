// A busy indicator. Alone it is announced ("Cargando…" by default, role=status); inside a control
// that says it is busy itself (a loading Button), pass `decorative`.
import { useTranslation } from "react-i18next";
import { cx } from "./cx";
import styles from "./Spinner.module.css";

export interface SpinnerProps {
  size?: "sm" | "md" | "lg";
  /** What is loading, for assistive technology; default "Cargando…" / "Loading…". */
  label?: string;
  /** Shown beside the spinner (also the announced text). */
  showLabel?: boolean;
  /** Hidden from assistive technology: the surrounding control announces the busy state. */
  decorative?: boolean;
  className?: string;
}

export function Spinner({ size = "md", label, showLabel = false, decorative = false, className }: SpinnerProps) {
  const { t } = useTranslation();
  const text = label ?? t("ui.loading");
  const wheel = <span className={cx(styles.spinner, size !== "md" && styles[size], className)} aria-hidden="true" />;
  if (decorative) return wheel;
  return (
    <span role="status" className={showLabel ? styles.block : undefined}>
      {wheel}
      {showLabel ? <span>{text}</span> : <span className="visually-hidden">{text}</span>}
    </span>
  );
}
