import { Menu } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../ui/Button";
import { Logo } from "./Logo";
import styles from "./TopBar.module.css";

interface TopBarProps {
  sidebarId: string;
  menuOpen: boolean;
  onToggleMenu: () => void;
  /** The language and theme switches; absent on phones (they are in the sidebar drawer there). */
  preferences?: ReactNode;
  /** Sync status indicator; nothing is rendered while absent. */
  syncStatus?: ReactNode;
  /** User menu: profile, admin, sign-out; nothing is rendered while absent. */
  userMenu?: ReactNode;
  /** Workspace switcher; nothing is rendered while absent (onboarding not finished). */
  workspaceSwitcher?: ReactNode;
}

export function TopBar({ sidebarId, menuOpen, onToggleMenu, preferences, syncStatus, userMenu, workspaceSwitcher }: TopBarProps) {
  const { t } = useTranslation();
  return (
    <header className={styles.topbar} data-testid="topbar">
      <IconButton
        className={styles.menu}
        aria-controls={sidebarId}
        aria-expanded={menuOpen}
        label={menuOpen ? t("nav.closeMenu") : t("nav.openMenu")}
        icon={<Menu size={20} />}
        onClick={onToggleMenu}
      />
      <span className={styles.brand} data-with-workspace={workspaceSwitcher != null}>
        <Logo size={24} />
        <span>{t("app.name")}</span>
      </span>
      {workspaceSwitcher != null && (
        <div className={styles.workspace} data-slot="workspace-switcher">
          {workspaceSwitcher}
        </div>
      )}
      <div className={styles.actions}>
        {syncStatus != null && (
          <div className={styles.slot} data-slot="sync-status">
            {syncStatus}
          </div>
        )}
        {preferences}
        {userMenu != null && (
          <div className={styles.slot} data-slot="user-menu">
            {userMenu}
          </div>
        )}
      </div>
    </header>
  );
}
