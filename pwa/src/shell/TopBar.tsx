import { Menu } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { LanguageSwitch } from "./LanguageSwitch";
import { Logo } from "./Logo";
import { ThemeSwitch } from "./ThemeSwitch";

interface TopBarProps {
  sidebarId: string;
  menuOpen: boolean;
  onToggleMenu: () => void;
  /** Sync status indicator (added by the sync issue); nothing is rendered while absent. */
  syncStatus?: ReactNode;
  /** User menu: profile, billing, log out; nothing is rendered while absent (signed out). */
  userMenu?: ReactNode;
  /** Workspace switcher; nothing is rendered while absent (signed out). */
  workspaceSwitcher?: ReactNode;
}

export function TopBar({ sidebarId, menuOpen, onToggleMenu, syncStatus, userMenu, workspaceSwitcher }: TopBarProps) {
  const { t } = useTranslation();
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button topbar-menu"
        aria-controls={sidebarId}
        aria-expanded={menuOpen}
        aria-label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
        onClick={onToggleMenu}
      >
        <Menu size={20} aria-hidden="true" />
      </button>
      <span className="topbar-brand">
        <Logo size={24} />
        <span>{t("app.name")}</span>
      </span>
      {workspaceSwitcher != null && (
        <div className="topbar-slot topbar-workspace" data-slot="workspace-switcher">
          {workspaceSwitcher}
        </div>
      )}
      <div className="topbar-actions">
        {syncStatus != null && <div className="topbar-slot" data-slot="sync-status">{syncStatus}</div>}
        <LanguageSwitch />
        <ThemeSwitch />
        {userMenu != null && <div className="topbar-slot" data-slot="user-menu">{userMenu}</div>}
      </div>
    </header>
  );
}
