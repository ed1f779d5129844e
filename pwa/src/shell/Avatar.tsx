// The signed-in user's initials on a round button: the user menu's trigger. Light on purpose: the
// top bar shows it at once, and the menu's code loads only when the user reaches for it.
import type { ButtonHTMLAttributes, Ref } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import styles from "./UserMenu.module.css";

export function displayName(user: Pick<User, "firstName" | "lastName" | "email">): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return name || user.email;
}

export function initials(user: Pick<User, "firstName" | "lastName" | "email">): string {
  const parts = [user.firstName, user.lastName].filter((p): p is string => !!p && p.trim() !== "");
  const letters = parts.length > 0 ? parts.map((p) => p.trim()[0]) : [user.email[0]];
  return letters.join("").slice(0, 2).toUpperCase();
}

export interface AvatarButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  user: User;
  ref?: Ref<HTMLButtonElement>;
}

/** The round button with the user's initials, named "Account menu of …"; it opens a menu. */
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
      <span className={styles.avatar} aria-hidden="true">
        {initials(user)}
      </span>
    </button>
  );
}
