import { Link } from "@tanstack/react-router";
import { ShieldX } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useTitleOverride } from "../../router/title";
import { buttonClass } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import page from "../page.module.css";

export interface AccessDeniedProps {
  /** Why, when the screen knows (a translated text): e.g. a viewer opened an editing screen. The
   * generic "You do not have permission to open this page." otherwise. */
  reason?: string;
}

/**
 * Shown instead of a screen the user may not open (an asset they may not see, an editing screen a
 * viewer opens, the admin area for a non-admin), with a way back to their assets.
 */
export function AccessDenied({ reason }: AccessDeniedProps = {}) {
  const { t } = useTranslation();
  useTitleOverride("accessDenied.title");
  return (
    <div className={page.page}>
      <EmptyState
        icon={<ShieldX size={24} />}
        headingLevel={1}
        title={t("accessDenied.title")}
        text={reason ?? t("accessDenied.description")}
        action={
          <Link to="/assets" className={buttonClass({ variant: "primary" })} data-testid="access-denied-back">
            {t("accessDenied.back")}
          </Link>
        }
        data-testid="access-denied"
      />
    </div>
  );
}
