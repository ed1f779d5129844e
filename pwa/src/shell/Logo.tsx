import { useId } from "react";
import styles from "./Logo.module.css";

/** The brand mark (three rising bars on the brand gradient), as drawn by scripts/make-icons.ts. */
export function Logo({ size = 28 }: { size?: number }) {
  const gradientId = useId();
  return (
    <svg width={size} height={size} viewBox="0 0 100 100" aria-hidden="true" focusable="false" className={styles.logo}>
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#0d9488" />
          <stop offset="1" stopColor="#115e59" />
        </linearGradient>
      </defs>
      <rect width="100" height="100" rx="22" fill={`url(#${gradientId})`} />
      <rect x="24" y="50" width="12" height="26" rx="3.8" fill="#fff" />
      <rect x="44" y="38" width="12" height="38" rx="3.8" fill="#fff" />
      <rect x="64" y="24" width="12" height="52" rx="3.8" fill="#fff" />
    </svg>
  );
}
