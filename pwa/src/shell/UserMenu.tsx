// The user menu: who is signed in, the profile, billing, the admin area (admins only) and sign-out, on the
// kit's DropdownMenu (arrow keys, typeahead, Escape gives focus back). `minimal` (the plain layout of
// onboarding) offers sign-out only: the other screens open once onboarding is done.
import { Link } from "@tanstack/react-router";
import { CreditCard, LogOut, ShieldHalf, UserRound } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { useErrorText } from "../api/useErrorText";
import { useSignOut } from "../auth/signOut";
import { notify } from "../toast/toast";
import { DropdownMenu, MenuItem, MenuLabel, MenuSeparator } from "../ui/DropdownMenu";
import { AvatarButton, displayName } from "./Avatar";
import styles from "./UserMenu.module.css";

export { displayName, initials } from "./Avatar";

export interface UserMenuProps {
  user: User;
  /** Sign-out only (the plain layout of onboarding). */
  minimal?: boolean;
  /** Opens at once: the user asked for it before this code had loaded (see UserMenuSlot). */
  initiallyOpen?: "pointer" | "keyboard";
}

export function UserMenu({ user, minimal = false, initiallyOpen }: UserMenuProps) {
  const { t } = useTranslation();
  const signOut = useSignOut();
  const errorText = useErrorText();
  const [open, setOpen] = useState(initiallyOpen !== undefined);
  const focusFirst = useRef(initiallyOpen === "keyboard");
  useEffect(() => {
    if (!open || !focusFirst.current) return;
    focusFirst.current = false;
    // Opened from the keyboard before the menu existed: land on the first item, as Radix does.
    const frame = requestAnimationFrame(() => document.querySelector<HTMLElement>(`.${styles.menu} [role="menuitem"]`)?.focus());
    return () => cancelAnimationFrame(frame);
  }, [open]);
  return (
    <DropdownMenu
      label={t("userMenu.title")}
      open={open}
      onOpenChange={setOpen}
      className={styles.menu}
      trigger={<AvatarButton user={user} />}
    >
      <MenuLabel>
        <span className={styles.name}>{displayName(user)}</span>
        <span className={styles.email}>{user.email}</span>
      </MenuLabel>
      {!minimal && (
        <MenuItem asChild>
          <Link to="/profile">
            <UserRound size={16} aria-hidden="true" />
            {t("userMenu.profile")}
          </Link>
        </MenuItem>
      )}
      {!minimal && (
        <MenuItem asChild>
          <Link to="/profile/billing" search={{ tab: "billing" }}>
            <CreditCard size={16} aria-hidden="true" />
            {t("userMenu.billing")}
          </Link>
        </MenuItem>
      )}
      {!minimal && user.isAdmin && (
        <MenuItem asChild>
          <Link to="/admin">
            <ShieldHalf size={16} aria-hidden="true" />
            {t("userMenu.admin")}
          </Link>
        </MenuItem>
      )}
      <MenuSeparator />
      <MenuItem
        icon={<LogOut size={16} />}
        disabled={signOut.isPending}
        onSelect={() =>
          signOut.mutate(undefined, {
            onError: (error) => notify("error", errorText(error)),
          })
        }
      >
        {signOut.isPending ? t("userMenu.signingOut") : t("userMenu.signOut")}
      </MenuItem>
    </DropdownMenu>
  );
}
