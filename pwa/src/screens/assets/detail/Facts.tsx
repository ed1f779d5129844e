// A list of label/value pairs (a <dl>) for the read-only figures of a section.
import type { ReactNode } from "react";
import styles from "./detail.module.css";

export interface Fact {
  id: string;
  label: ReactNode;
  value: ReactNode;
}

export function Facts({ facts, testId }: { facts: readonly Fact[]; testId?: string }) {
  return (
    <dl className={styles.facts} data-testid={testId}>
      {facts.map((f) => (
        <div key={f.id} className={styles.fact} data-testid={`fact-${f.id}`}>
          <dt>{f.label}</dt>
          <dd>{f.value}</dd>
        </div>
      ))}
    </dl>
  );
}
