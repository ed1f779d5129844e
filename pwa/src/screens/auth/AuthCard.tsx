// The centred card of the sign-in, sign-up and verification screens, and the separator between a
// form and another way in ("o").
import type { ReactNode } from "react";
import { Logo } from "../../shell/Logo";
import styles from "./AuthCard.module.css";

export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className={styles.page}>
      <section className={styles.card} aria-labelledby="auth-title">
        <div className={styles.head}>
          <span className={styles.logo}>
            <Logo size={40} />
          </span>
          <h1 id="auth-title" className={styles.title}>
            {title}
          </h1>
          {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        </div>
        {children}
      </section>
      {footer && <p className={styles.footer}>{footer}</p>}
    </div>
  );
}

/** The centred page of the hosted provider's own components (Clerk). */
export function AuthPage({ children }: { children: ReactNode }) {
  return <div className={styles.page}>{children}</div>;
}

/** A horizontal rule with a word in it, between two ways of doing the same thing. */
export function AuthDivider({ children }: { children: ReactNode }) {
  return (
    <div className={styles.divider} role="separator">
      <span>{children}</span>
    </div>
  );
}

/** A decorative icon above a form (the envelope of "check your e-mail"). */
export function AuthIllustration({ children }: { children: ReactNode }) {
  return (
    <div className={styles.illustration} aria-hidden="true">
      {children}
    </div>
  );
}
