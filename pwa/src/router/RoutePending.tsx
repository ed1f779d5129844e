// The router's pending view (after ROUTER_DEFAULTS.defaultPendingMs), also shown by layouts waiting
// for /me or for the app shell's code: the kit's Spinner with its label.
import { useTranslation } from "react-i18next";
import { Spinner } from "../ui/Spinner";
import styles from "./RoutePending.module.css";

export function RoutePending() {
  const { t } = useTranslation();
  return (
    <div className={styles.pending} data-testid="route-pending">
      <Spinner size="lg" showLabel label={t("router.pending")} />
    </div>
  );
}
