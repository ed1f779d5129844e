// /admin: app admins only. The server checks every admin call; this screen only decides what to
// show: the Access Denied screen for everyone else.
import { Link, Outlet } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useMe } from "../../api/queries";
import { RoutePending } from "../../router/fallbacks";
import { NeedsConnection } from "../../shell/NeedsConnection";
import { AccessDenied } from "./AccessDenied";
import page from "../page.module.css";
import styles from "./Admin.module.css";

export function AdminLayout() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  if (!me) return <RoutePending />;
  if (!me.user.isAdmin) return <AccessDenied />;
  return (
    <div className={page.page}>
      <p className={styles.eyebrow}>{t("admin.title")}</p>
      <nav aria-label={t("shell.titles.admin")} className={styles.nav}>
        <Link to="/admin/users" activeProps={{ "aria-current": "page" }}>{t("shell.titles.adminUsers")}</Link>
        <Link to="/admin/enums" activeProps={{ "aria-current": "page" }}>{t("shell.titles.adminEnums")}</Link>
      </nav>
      <NeedsConnection>{t("admin.offline")}</NeedsConnection>
      <Outlet />
    </div>
  );
}
