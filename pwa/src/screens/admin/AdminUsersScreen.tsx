// /admin/users: the app's users, newest first (GET /api/v1/admin/users), searched by e-mail and
// paged. The server describes the page in headers: X-Total-Count (how many match in all) and a Link
// rel="next" (the next page); Previous steps back by the page size. Each row shows the account's
// status, last sign-in and subscription, and a menu to disable or enable the account and to grant
// or revoke the admin role, each confirmed in an AlertDialog (granting and revoking may open the
// re-verification dialog first; the server decides). Nobody acts on themself.
import type { AdminUserAction } from "@patrimonio/shared-schema";
import { ChevronLeft, ChevronRight, MoreHorizontal, Search, ShieldCheck, ShieldOff, UserCheck, UserX } from "lucide-react";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { useAdminUserActionMutation, useAdminUserAudit, useAdminUsersPage } from "../../api/admin";
import { useMe } from "../../api/queries";
import type { AdminUser } from "../../api/types";
import { useErrorText } from "../../api/useErrorText";
import { FormError } from "../../forms/FormError";
import { useFormatters } from "../../i18n/useFormatters";
import { RoutePending } from "../../router/fallbacks";
import { notify } from "../../toast/toast";
import { Badge } from "../../ui/Badge";
import { Button, IconButton } from "../../ui/Button";
import { AlertDialog } from "../../ui/Dialog";
import { DropdownMenu, MenuItem } from "../../ui/DropdownMenu";
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
  const me = useMe().data?.user;
  const [pending, setPending] = useState<{ user: AdminUser; action: AdminUserAction } | null>(null);

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
                <th scope="col">{t("admin.users.status")}</th>
                <th scope="col">{t("admin.users.emailVerified")}</th>
                <th scope="col">{t("admin.users.lastSignIn")}</th>
                <th scope="col">{t("admin.users.subscription")}</th>
                <th scope="col">{t("admin.users.createdAt")}</th>
                <th scope="col">
                  <span className="visually-hidden">{t("admin.users.actions")}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((user) => (
                <UserRow key={user.id} user={user} self={user.id === me?.id} onAction={(action) => setPending({ user, action })} />
              ))}
            </tbody>
          </table>
        </div>
      )}

      <UserAudit />

      {pending && <ConfirmUserAction key={`${pending.user.id}-${pending.action}`} {...pending} onClose={() => setPending(null)} />}

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

/** The stored subscription status in words: billing's spec shows past_due as "expired" and
 * trialing as "on trial"; any other status is shown as the server gives it. */
function useSubscriptionLabel(): (status: string | null) => string {
  const { t } = useTranslation();
  return (status) => {
    switch (status) {
      case null:
        return t("admin.users.subscriptionNone");
      case "active":
        return t("admin.users.subscriptionStatus.active");
      case "trialing":
        return t("admin.users.subscriptionStatus.trialing");
      case "past_due":
        return t("admin.users.subscriptionStatus.past_due");
      case "canceled":
        return t("admin.users.subscriptionStatus.canceled");
      default:
        return status;
    }
  };
}

function UserRow({ user, self, onAction }: { user: AdminUser; self: boolean; onAction: (action: AdminUserAction) => void }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const subscriptionLabel = useSubscriptionLabel();
  const when = (iso: string) => format.date(iso, { dateStyle: "medium", timeStyle: "short" });
  return (
    <tr data-testid={`admin-user-${user.email}`}>
      <td>{[user.firstName, user.lastName].filter(Boolean).join(" ") || "—"}</td>
      <td>
        {user.email}
        {self && (
          <>
            {" "}
            <Badge tone="outline">{t("admin.users.you")}</Badge>
          </>
        )}
      </td>
      <td>
        {user.isAdmin ? (
          <Badge tone="success" title={user.adminByConfig ? t("admin.users.adminByConfigHint") : undefined}>
            {user.adminByConfig ? t("admin.users.adminByConfig") : t("admin.users.admin")}
          </Badge>
        ) : (
          t("admin.users.member")
        )}
      </td>
      <td data-testid="admin-user-status">
        {user.disabled ? <Badge tone="danger">{t("admin.users.disabled")}</Badge> : <Badge tone="neutral">{t("admin.users.active")}</Badge>}
      </td>
      <td>{user.emailVerified ? t("profile.account.verified") : t("profile.account.unverified")}</td>
      <td>{user.lastSignInAt ? when(user.lastSignInAt) : t("admin.users.never")}</td>
      <td>{subscriptionLabel(user.subscriptionStatus)}</td>
      <td>{format.date(user.createdAt, { dateStyle: "medium" })}</td>
      <td>
        <DropdownMenu
          trigger={<IconButton size="sm" label={t("admin.users.actionsFor", { email: user.email })} icon={<MoreHorizontal size={16} />} />}
        >
          {user.disabled ? (
            <MenuItem icon={<UserCheck size={16} />} disabled={self} onSelect={() => onAction("enable")}>
              {t("admin.users.enable")}
            </MenuItem>
          ) : (
            <MenuItem icon={<UserX size={16} />} danger disabled={self || user.adminByConfig} onSelect={() => onAction("disable")}>
              {t("admin.users.disable")}
            </MenuItem>
          )}
          {user.isAdmin ? (
            <MenuItem icon={<ShieldOff size={16} />} danger disabled={self || user.adminByConfig} onSelect={() => onAction("revoke_admin")}>
              {user.adminByConfig ? t("admin.users.revokeAdminConfigured") : t("admin.users.revokeAdmin")}
            </MenuItem>
          ) : (
            <MenuItem icon={<ShieldCheck size={16} />} disabled={self} onSelect={() => onAction("grant_admin")}>
              {t("admin.users.grantAdmin")}
            </MenuItem>
          )}
        </DropdownMenu>
      </td>
    </tr>
  );
}

const CONFIRM = {
  disable: { title: "admin.users.confirm.disableTitle", text: "admin.users.confirm.disableText", button: "admin.users.disable", done: "admin.users.done.disable", tone: "danger" },
  enable: { title: "admin.users.confirm.enableTitle", text: "admin.users.confirm.enableText", button: "admin.users.enable", done: "admin.users.done.enable", tone: "default" },
  grant_admin: { title: "admin.users.confirm.grantTitle", text: "admin.users.confirm.grantText", button: "admin.users.grantAdmin", done: "admin.users.done.grant_admin", tone: "default" },
  revoke_admin: { title: "admin.users.confirm.revokeTitle", text: "admin.users.confirm.revokeText", button: "admin.users.revokeAdmin", done: "admin.users.done.revoke_admin", tone: "danger" },
} as const satisfies Record<AdminUserAction, { title: string; text: string; button: string; done: string; tone: "danger" | "default" }>;

/** The subscription statuses Stripe still charges (or retries): disabling warns about them. */
const BILLING_STATUSES = new Set(["active", "trialing", "past_due"]);

/** Confirms one action on one user; closes when it is done (a toast says so). */
function ConfirmUserAction({ user, action, onClose }: { user: AdminUser; action: AdminUserAction; onClose: () => void }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const subscriptionLabel = useSubscriptionLabel();
  const texts = CONFIRM[action];
  // Disabling does not stop Stripe: a subscription still billing keeps charging, and its owner can
  // no longer sign in to cancel it (README, admin area). Said plainly before the admin confirms.
  const stillBilling = action === "disable" && BILLING_STATUSES.has(user.subscriptionStatus ?? "");
  const mutation = useAdminUserActionMutation({
    onSuccess: () => {
      notify("success", t(texts.done, { email: user.email }));
      onClose();
    },
  });
  return (
    <AlertDialog
      open
      onOpenChange={(open) => !open && !mutation.isPending && onClose()}
      title={t(texts.title, { email: user.email })}
      description={
        stillBilling ? (
          <>
            {t(texts.text)}{" "}
            <strong data-testid="admin-user-confirm-billing">
              {t("admin.users.confirm.disableBilling", { status: subscriptionLabel(user.subscriptionStatus) })}
            </strong>
          </>
        ) : (
          t(texts.text)
        )
      }
      confirmLabel={t(texts.button)}
      confirmLoadingLabel={t("admin.users.saving")}
      tone={texts.tone}
      loading={mutation.isPending}
      error={mutation.error ? errorText(mutation.error) : undefined}
      onConfirm={() => mutation.mutate({ userId: user.id, action })}
      data-testid="admin-user-confirm"
    />
  );
}

/** The latest changes admins made to users: who did what to whom, and when. */
function UserAudit() {
  const { t } = useTranslation();
  const format = useFormatters();
  const audit = useAdminUserAudit();
  const entries = audit.data ?? [];
  if (entries.length === 0) return null;
  return (
    <section aria-labelledby="admin-users-audit-title">
      <h2 id="admin-users-audit-title" className={styles.auditTitle}>
        {t("admin.users.audit.title")}
      </h2>
      <ul className={styles.audit} data-testid="admin-users-audit">
        {entries.map((e) => (
          <li key={e.id}>
            {t(`admin.users.audit.${e.action}`, {
              when: format.date(e.at, { dateStyle: "short", timeStyle: "short" }),
              who: e.actorEmail,
              user: e.userEmail,
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}
