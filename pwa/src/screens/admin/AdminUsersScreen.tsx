// /admin/users: the app's newest users (GET /api/v1/admin/users, its first page).
import { useTranslation } from "react-i18next";
import { useAdminUsers } from "../../api/queries";
import { useErrorText } from "../../api/useErrorText";
import { FormAlert } from "../../forms/fields";
import { useFormatters } from "../../i18n/useFormatters";
import { RoutePending } from "../../router/fallbacks";

export function AdminUsersScreen() {
  const { t } = useTranslation();
  const users = useAdminUsers();
  const errorText = useErrorText();
  const format = useFormatters();
  return (
    <section aria-labelledby="admin-users-title">
      <h1 id="admin-users-title" className="page-title page-title-spaced">
        {t("admin.users.title")}
      </h1>
      {users.isPending && <RoutePending />}
      {users.isError && <FormAlert>{errorText(users.error)}</FormAlert>}
      {users.data && (
        <div className="table-wrap">
          <table className="table" data-testid="admin-users">
            <caption className="visually-hidden">{t("admin.users.caption", { count: users.data.length })}</caption>
            <thead>
              <tr>
                <th scope="col">{t("admin.users.name")}</th>
                <th scope="col">{t("auth.email")}</th>
                <th scope="col">{t("admin.users.role")}</th>
                <th scope="col">{t("admin.users.emailVerified")}</th>
                <th scope="col">{t("admin.users.createdAt")}</th>
              </tr>
            </thead>
            <tbody>
              {users.data.map((user) => (
                <tr key={user.id}>
                  <td>{[user.firstName, user.lastName].filter(Boolean).join(" ") || "—"}</td>
                  <td>{user.email}</td>
                  <td>{user.isAdmin ? <span className="badge badge-success">{t("admin.users.admin")}</span> : t("admin.users.member")}</td>
                  <td>{user.emailVerified ? t("profile.account.verified") : t("profile.account.unverified")}</td>
                  <td>{format.date(user.createdAt, { dateStyle: "medium" })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
