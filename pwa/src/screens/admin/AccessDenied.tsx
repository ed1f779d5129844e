import { Link } from "@tanstack/react-router";
import { ShieldX } from "lucide-react";
import { useTranslation } from "react-i18next";

/** Shown instead of a screen the user may not open, with a way back to their assets. */
export function AccessDenied() {
  const { t } = useTranslation();
  return (
    <section className="fallback" aria-labelledby="access-denied-title" data-testid="access-denied">
      <span className="fallback-icon fallback-icon-danger" aria-hidden="true">
        <ShieldX size={22} />
      </span>
      <h1 id="access-denied-title" className="fallback-title">
        {t("accessDenied.title")}
      </h1>
      <p className="fallback-text">{t("accessDenied.description")}</p>
      {/* The asset list (/assets/) does not exist yet; the dashboard is where the assets are. */}
      <Link to="/" className="button button-primary">
        {t("accessDenied.back")}
      </Link>
    </section>
  );
}
