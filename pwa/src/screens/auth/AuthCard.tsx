import type { ReactNode } from "react";
import { Logo } from "../../shell/Logo";

/** The centred card of the sign-in, sign-up and verification screens. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-page">
      <section className="auth-card" aria-labelledby="auth-title">
        <div className="auth-card-head">
          <Logo size={40} />
          <h1 id="auth-title" className="auth-title">
            {title}
          </h1>
          {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        </div>
        {children}
      </section>
      {footer && <p className="auth-footer">{footer}</p>}
    </div>
  );
}
