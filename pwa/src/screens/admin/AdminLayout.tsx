// /admin: app admins only. The server checks every admin call; this screen only decides what to
// show: the Access Denied screen for everyone else.
import { Outlet } from "@tanstack/react-router";
import { useTranslation } from "react-i18next";
import { useMe } from "../../api/queries";
import { RoutePending } from "../../router/fallbacks";
import { AccessDenied } from "./AccessDenied";

export function AdminLayout() {
  const { t } = useTranslation();
  const { data: me } = useMe();
  if (!me) return <RoutePending />;
  if (!me.user.isAdmin) return <AccessDenied />;
  return (
    <div className="page">
      <div className="page-header">
        <p className="page-eyebrow">{t("admin.title")}</p>
      </div>
      <Outlet />
    </div>
  );
}
