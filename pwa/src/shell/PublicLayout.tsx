// The plain layout of the pages a visitor sees before the app: sign-in, sign-up, e-mail
// verification, password reset, onboarding, and the legal pages while signed out. The brand, the
// language and theme switches (and, for a signed-in user in onboarding, a menu to sign out), the page,
// and a footer with the legal links. No sidebar: its screens are not open to them yet.
import { Outlet } from "@tanstack/react-router";
import { useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useMe } from "../api/queries";
import { MAIN_SCROLL_ID, PUBLIC_SCROLL_ID } from "../router/config";
import { DevicePreferences } from "./DevicePreferences";
import { InLayoutContext } from "./layoutContext";
import { LegalLinks } from "./LegalLinks";
import { Logo } from "./Logo";
import styles from "./PublicLayout.module.css";
import { SkipLink } from "./SkipLink";
import { UserMenuSlot } from "./UserMenuSlot";

export function PublicLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { data: me } = useMe();
  const mainRef = useRef<HTMLElement>(null);
  return (
    <InLayoutContext.Provider value={true}>
      <div id={PUBLIC_SCROLL_ID} className={styles.page} data-scroll-restoration-id={PUBLIC_SCROLL_ID} data-testid="public-layout">
        <SkipLink target={mainRef} />
        <header className={styles.header}>
          <span className={styles.brand}>
            <Logo size={28} />
            <span>{t("app.name")}</span>
          </span>
          <div className={styles.actions}>
            <DevicePreferences />
            {/* A signed-in user in onboarding may sign out here; the menu's code loads on demand. */}
            {me && <UserMenuSlot user={me.user} minimal />}
          </div>
        </header>
        <main ref={mainRef} id={MAIN_SCROLL_ID} className={styles.main} data-testid="main-scroll" tabIndex={-1}>
          {children ?? <Outlet />}
        </main>
        <footer className={styles.footer}>
          <LegalLinks />
          <span className={styles.copyright}>{t("shell.footerNote")}</span>
        </footer>
      </div>
    </InLayoutContext.Provider>
  );
}
