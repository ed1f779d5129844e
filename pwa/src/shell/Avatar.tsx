// The signed-in user's picture (auth/UserAvatar: the initials without one) on a round button: the user
// menu's trigger. Light on purpose: the top bar shows it at once, and the menu's code loads only when
// the user reaches for it.
import type { ButtonHTMLAttributes, Ref } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { initialsOf, UserAvatar } from "../auth/UserAvatar";
import styles from "./UserMenu.module.css";

export function displayName(user: Pick<User, "firstName" | "lastName" | "email">): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return name || user.email;
}

/** Up to two capitals: of the first and last name, else of the e-mail address. */
export function initials(user: Pick<User, "firstName" | "lastName" | "email">): string {
  return initialsOf(user);
}

export interface AvatarButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  user: User;
  ref?: Ref<HTMLButtonElement>;
}

/** The round button with the user's picture or initials, named "Account menu of …"; it opens a menu. */
export function AvatarButton({ user, ...rest }: AvatarButtonProps) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className={styles.button}
      aria-haspopup="menu"
      aria-expanded={false}
      aria-label={t("userMenu.label", { name: displayName(user) })}
      data-testid="user-menu-button"
      {...rest}
    >
      <UserAvatar user={user} size={34} />
    </button>
  );
}
