// The links to the legal pages (spec: /tos/ and /privacy/), in the footer of both layouts.
import { Link } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { cx } from "../ui/cx";
import styles from "./LegalLinks.module.css";

export function LegalLinks({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <nav aria-label={t("shell.legalNav")} className={cx(styles.links, className)} data-testid="legal-links">
      <Link to="/tos" className={styles.link} activeProps={{ "aria-current": "page" }}>
        {t("shell.terms")}
      </Link>
      <Link to="/privacy" className={styles.link} activeProps={{ "aria-current": "page" }}>
        {t("shell.privacy")}
      </Link>
    </nav>
  );
}
