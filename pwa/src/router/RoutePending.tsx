// The router's pending view (after ROUTER_DEFAULTS.defaultPendingMs), also shown by layouts waiting
// for /me or for the app shell's code.
import { LoaderCircle } from "lucide-react";
import { useTranslation } from "react-i18next";
import styles from "./fallbacks.module.css";

export function RoutePending() {
  const { t } = useTranslation();
  return (
    <div className={styles.pending} role="status" data-testid="route-pending">
      <LoaderCircle className={styles.spin} size={20} aria-hidden="true" />
      <span>{t("router.pending")}</span>
    </div>
  );
}
