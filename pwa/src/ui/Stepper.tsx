// The steps of a multi-step flow (onboarding, an asset wizard): an ordered list, the current step
// marked aria-current="step", finished steps say so to screen readers. On a phone only the current
// step's label shows.
import { Check } from "lucide-react";
import { useTranslation } from "react-i18next";
import { cx } from "./cx";
import styles from "./Stepper.module.css";

export interface StepperProps {
  steps: readonly string[];
  /** Index of the current step, from 0. */
  current: number;
  /** Indexes of steps before the current one that were skipped: no check mark, "(omitido)" read out. */
  skipped?: readonly number[];
  /** Names the list ("Pasos del alta"); default "Pasos". */
  label?: string;
  className?: string;
}

export function Stepper({ steps, current, skipped = [], label, className }: StepperProps) {
  const { t } = useTranslation();
  return (
    <ol className={cx(styles.stepper, className)} aria-label={label ?? t("ui.stepper.label")}>
      {steps.map((step, index) => {
        const state = index < current ? (skipped.includes(index) ? "skipped" : "done") : index === current ? "current" : "upcoming";
        return (
          <li key={step} className={styles.item} data-state={state} aria-current={state === "current" ? "step" : undefined}>
            <span className={styles.dot} aria-hidden="true">
              {state === "done" ? <Check size={13} strokeWidth={3} /> : state === "skipped" ? "–" : index + 1}
            </span>
            <span className={styles.label}>
              {step}
              {state === "done" && <span className="visually-hidden"> ({t("ui.stepper.done")})</span>}
              {state === "skipped" && <span className="visually-hidden"> ({t("ui.stepper.skipped")})</span>}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
