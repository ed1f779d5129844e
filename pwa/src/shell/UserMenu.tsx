// The top bar's user menu: who is signed in, the profile, the admin area (admins only) and sign-out.
// A menu button (aria-haspopup) with arrow-key navigation; Escape or a click outside closes it.
import { Link } from "@tanstack/react-router";
import { LogOut, ShieldHalf, UserRound } from "lucide-react";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { User } from "../api/types";
import { useErrorText } from "../api/useErrorText";
import { useSignOut } from "../auth/signOut";
import { notify } from "../toast/toast";

export function displayName(user: Pick<User, "firstName" | "lastName" | "email">): string {
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ").trim();
  return name || user.email;
}

export function initials(user: Pick<User, "firstName" | "lastName" | "email">): string {
  const parts = [user.firstName, user.lastName].filter((p): p is string => !!p && p.trim() !== "");
  const letters = parts.length > 0 ? parts.map((p) => p.trim()[0]) : [user.email[0]];
  return letters.join("").slice(0, 2).toUpperCase();
}

export function UserMenu({ user }: { user: User }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const signOut = useSignOut();
  const errorText = useErrorText();

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!menuRef.current?.contains(target) && !buttonRef.current?.contains(target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointerDown);
    return () => document.removeEventListener("pointerdown", onPointerDown);
  }, [open]);

  function close(focusButton: boolean) {
    setOpen(false);
    if (focusButton) buttonRef.current?.focus();
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = [...(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLElement);
    let next: HTMLElement | undefined;
    switch (event.key) {
      case "Escape":
        event.preventDefault();
        close(true);
        return;
      case "Tab":
        close(false);
        return;
      case "ArrowDown":
        next = items[(index + 1) % items.length];
        break;
      case "ArrowUp":
        next = items[(index - 1 + items.length) % items.length];
        break;
      case "Home":
        next = items[0];
        break;
      case "End":
        next = items[items.length - 1];
        break;
      default:
        return;
    }
    event.preventDefault();
    next?.focus();
  }

  return (
    <div className="user-menu">
      <button
        ref={buttonRef}
        type="button"
        className="user-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={t("userMenu.label", { name: displayName(user) })}
        data-testid="user-menu-button"
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown" && !open) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <span className="avatar" aria-hidden="true">
          {initials(user)}
        </span>
      </button>
      {open && (
        <div ref={menuRef} id={menuId} role="menu" aria-label={t("userMenu.title")} className="menu" onKeyDown={onMenuKeyDown}>
          <div className="menu-header" role="presentation">
            <span className="menu-header-name">{displayName(user)}</span>
            <span className="menu-header-email">{user.email}</span>
          </div>
          <Link to="/profile" role="menuitem" className="menu-item" tabIndex={-1} onClick={() => close(false)}>
            <UserRound size={16} aria-hidden="true" />
            {t("userMenu.profile")}
          </Link>
          {user.isAdmin && (
            <Link to="/admin" role="menuitem" className="menu-item" tabIndex={-1} onClick={() => close(false)}>
              <ShieldHalf size={16} aria-hidden="true" />
              {t("userMenu.admin")}
            </Link>
          )}
          <div className="menu-separator" role="separator" />
          <button
            type="button"
            role="menuitem"
            className="menu-item"
            tabIndex={-1}
            disabled={signOut.isPending}
            onClick={() =>
              signOut.mutate(undefined, {
                onError: (error) => notify("error", errorText(error)),
              })
            }
          >
            <LogOut size={16} aria-hidden="true" />
            {signOut.isPending ? t("userMenu.signingOut") : t("userMenu.signOut")}
          </button>
        </div>
      )}
    </div>
  );
}
