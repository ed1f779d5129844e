// /admin/users: the app's users, newest first (GET /api/v1/admin/users), searched by e-mail and
// paged. The server describes the page in headers: X-Total-Count (how many match in all) and a Link
// rel="next" (the next page); Previous steps back by the page size.
import { ChevronLeft, ChevronRight, Search } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useAdminUsersPage } from "../../api/admin";
import type { AdminUser } from "../../api/types";
import { FormError } from "../../forms/FormError";
import { useFormatters } from "../../i18n/useFormatters";
import { RoutePending } from "../../router/fallbacks";
import { Badge } from "../../ui/Badge";
import { Button } from "../../ui/Button";
import { EmptyState } from "../../ui/EmptyState";
import { Field } from "../../ui/Field";
import { PageHeader } from "../../ui/PageHeader";
import { SearchInput } from "../../ui/SearchInput";
import formStyles from "../../forms/form.module.css";
import styles from "./Admin.module.css";

/** Page sizes on offer; the server takes 1 to 200. */
export const PAGE_SIZES = [10, 25, 50] as const;
export const DEFAULT_PAGE_SIZE = 25;
/** How long typing pauses before the search is sent (Enter sends it at once). */
export const SEARCH_DELAY_MS = 300;

export function AdminUsersScreen() {
  const { t } = useTranslation();
  const format = useFormatters();
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const [limit, setLimit] = useState<number>(DEFAULT_PAGE_SIZE);

  // Typing searches once the typing pauses; a new search starts at its first page.
  useEffect(() => {
    const text = draft.trim();
    if (text === search) return;
    const timer = setTimeout(() => {
      setSearch(text);
      setOffset(0);
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [draft, search]);

  const users = useAdminUsersPage({ search, offset, limit });
  const page = users.data;

  function submitSearch(event: FormEvent) {
    event.preventDefault();
    setSearch(draft.trim());
    setOffset(0);
  }

  const from = page && page.items.length > 0 ? page.offset + 1 : 0;
  const to = page ? page.offset + page.items.length : 0;

  return (
    <section aria-labelledby="admin-users-title">
      <PageHeader title={<span id="admin-users-title">{t("admin.users.title")}</span>} />

      <div className={styles.toolbar}>
        <form role="search" className={styles.search} onSubmit={submitSearch}>
          <Field label={t("admin.users.searchLabel")}>
            <SearchInput name="search" value={draft} onChange={setDraft} />
          </Field>
          <Button type="submit" icon={<Search size={16} />}>
            {t("admin.users.search")}
          </Button>
        </form>
        <Field label={t("admin.users.pageSize")}>
          {(control) => (
            <select
              {...control}
              className={formStyles.select}
              name="page-size"
              value={String(limit)}
              onChange={(e) => {
                setLimit(Number(e.target.value));
                setOffset(0);
              }}
            >
              {PAGE_SIZES.map((size) => (
                <option key={size} value={size}>
                  {size}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>

      {/* Where the list stands, read out after each search or page. */}
      <p className={styles.range} role="status" data-testid="admin-users-range">
        {page && page.items.length > 0
          ? page.total !== null
            ? t("admin.users.range", { from: format.number(from), to: format.number(to), total: format.number(page.total) })
            : t("admin.users.rangeUnknown", { from: format.number(from), to: format.number(to) })
          : ""}
      </p>

      {users.isPending && <RoutePending />}
      {users.isError && <FormError error={users.error} />}
      {page && page.items.length === 0 && page.offset === 0 && (
        <EmptyState title={search === "" ? t("admin.users.empty") : t("admin.users.noMatch", { search })} data-testid="admin-users-empty" />
      )}
      {page && page.items.length > 0 && (
        // Scrolls sideways on a phone: focusable and named, so the keyboard can scroll it too.
        <div className={styles.tableWrap} tabIndex={0} role="region" aria-label={t("admin.users.title")} aria-busy={users.isPlaceholderData || undefined}>
          <table className={styles.table} data-testid="admin-users">
            <caption className="visually-hidden">{t("admin.users.caption", { count: page.total ?? page.items.length })}</caption>
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
              {page.items.map((user) => (
                <UserRow key={user.id} user={user} created={format.date(user.createdAt, { dateStyle: "medium" })} />
              ))}
            </tbody>
          </table>
        </div>
      )}

      {page && (page.previous || page.next) && (
        <nav className={styles.pager} aria-label={t("admin.users.pagination")}>
          <Button icon={<ChevronLeft size={16} />} disabled={!page.previous || users.isPlaceholderData} onClick={() => page.previous && setOffset(page.previous.offset)}>
            {t("admin.users.previous")}
          </Button>
          <Button iconEnd={<ChevronRight size={16} />} disabled={!page.next || users.isPlaceholderData} onClick={() => page.next && setOffset(page.next.offset)}>
            {t("admin.users.next")}
          </Button>
        </nav>
      )}
    </section>
  );
}

function UserRow({ user, created }: { user: AdminUser; created: string }) {
  const { t } = useTranslation();
  return (
    <tr>
      <td>{[user.firstName, user.lastName].filter(Boolean).join(" ") || "—"}</td>
      <td>{user.email}</td>
      <td>{user.isAdmin ? <Badge tone="success">{t("admin.users.admin")}</Badge> : t("admin.users.member")}</td>
      <td>{user.emailVerified ? t("profile.account.verified") : t("profile.account.unverified")}</td>
      <td>{created}</td>
    </tr>
  );
}
