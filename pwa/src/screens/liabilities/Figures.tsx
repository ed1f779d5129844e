// A list of label/value pairs (a <dl>) for read-only figures: totals, a payment, a yield.
import type { ReactNode } from "react";
import styles from "./liabilities.module.css";

export interface Figure {
  id: string;
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
}

export function Figures({ figures, testId }: { figures: readonly Figure[]; testId?: string }) {
  return (
    <dl className={styles.figures} data-testid={testId}>
      {figures.map((f) => (
        <div key={f.id} className={styles.figure} data-testid={`figure-${f.id}`}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
          {f.hint && <dd className={styles.hint}>{f.hint}</dd>}
        </div>
      ))}
    </dl>
  );
}
