// The user menu: who is signed in, the profile, billing, the admin area (admins only) and sign-out, on the
// kit's DropdownMenu (arrow keys, typeahead, Escape gives focus back). `minimal` (the plain layout of
// onboarding) offers sign-out only: the other screens open once onboarding is done. Signing out wipes
// the device: when it holds changes the server does not have, the user is asked first
// (UnsentChangesDialog).
import { useClientDb } from "@patrimonio/clientdb/context";
import { Link } from "@tanstack/react-router";
import { CreditCard, LogOut, ShieldHalf, UserRound } from "lucide-react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { useErrorText } from "../api/useErrorText";
import { useSignOut } from "../auth/signOut";
import { notify } from "../toast/toast";
import { DropdownMenu, MenuItem, MenuLabel, MenuSeparator } from "../ui/DropdownMenu";
import { AvatarButton, displayName } from "./Avatar";
import type { UnsentCounts } from "./UnsentChangesDialog";
import styles from "./UserMenu.module.css";

export { displayName, initials } from "./Avatar";

const UnsentChangesDialog = lazy(() => import("./UnsentChangesDialog"));

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
  const db = useClientDb();
  // The changes the server does not have, when sign-out was chosen with some on the device.
  const [unsent, setUnsent] = useState<UnsentCounts | null>(null);
  const leave = () =>
    signOut.mutate(undefined, {
      onError: (error) => {
        setUnsent(null);
        notify("error", errorText(error));
      },
    });
  const chooseSignOut = async () => {
    if (db !== null) {
      try {
        const [pending, rejected] = await Promise.all([db.pendingCount(), db.rejected().then((rows) => rows.length)]);
        if (pending > 0 || rejected > 0) {
          setUnsent({ pending, rejected });
          return;
        }
      } catch {
        // The database could not be read (closing, storage lost): nothing to warn about from it.
      }
    }
    leave();
  };
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
    <>
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
          onSelect={() => void chooseSignOut()}
        >
          {signOut.isPending ? t("userMenu.signingOut") : t("userMenu.signOut")}
        </MenuItem>
      </DropdownMenu>
      {unsent !== null && (
        <Suspense fallback={null}>
          <UnsentChangesDialog
            open
            onOpenChange={(next) => {
              if (!next && !signOut.isPending) setUnsent(null);
            }}
            initial={unsent}
            loading={signOut.isPending}
            onConfirm={leave}
          />
        </Suspense>
      )}
    </>
  );
}
