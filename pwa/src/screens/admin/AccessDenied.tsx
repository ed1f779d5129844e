import { Link } from "@tanstack/react-router";
import { ShieldX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useTitleOverride } from "../../router/title";
import { buttonClass } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import page from "../page.module.css";

/** Shown instead of a screen the user may not open, with a way back to their assets. */
export function AccessDenied() {
  const { t } = useTranslation();
  useTitleOverride("accessDenied.title");
  return (
    <div className={page.page}>
      <EmptyState
        icon={<ShieldX size={24} />}
        headingLevel={1}
        title={t("accessDenied.title")}
        text={t("accessDenied.description")}
        // The asset list (/assets/) does not exist yet; the dashboard is where the assets are.
        action={
          <Link to="/" className={buttonClass({ variant: "primary" })}>
            {t("accessDenied.back")}
          </Link>
        }
        data-testid="access-denied"
      />
    </div>
  );
}
