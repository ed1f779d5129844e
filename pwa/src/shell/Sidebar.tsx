import { useClientDb } from "@patrimonio/clientdb/context";
import { Link } from "@tanstack/react-router";
import { X } from "lucide-react";
import { Suspense, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { IconButton } from "../ui/Button";
import { LegalLinks } from "./LegalLinks";
import { Logo } from "./Logo";
import { NAV_ITEMS } from "./navigation";
import styles from "./Sidebar.module.css";

interface SidebarProps {
  id: string;
  /** On narrow screens: whether the drawer is open. Wide screens always show the sidebar. */
  open: boolean;
  onClose: () => void;
  /** The language and theme switches, when they live here (phones). */
  preferences?: ReactNode;
}

export function Sidebar({ id, open, onClose, preferences }: SidebarProps) {
  const { t } = useTranslation();
  // The entries' counts read the device database: their code loads once it is open, after the
  // page's first paint, not with the shell.
  const dbOpen = useClientDb() !== null;
  return (
    <div id={id} className={styles.sidebar} data-open={open}>
      {/* The app's name inside the navigation: no sidebar content outside a landmark (axe's "region"). */}
      <nav className={styles.nav} aria-label={t("nav.label")}>
        <div className={styles.brand}>
          <Logo />
          <span className={styles.brandName}>{t("app.name")}</span>
          <IconButton className={styles.close} label={t("nav.closeMenu")} icon={<X size={18} />} onClick={onClose} />
        </div>
        <h2 id="sidebar-title" className={styles.title} data-testid="sidebar-title">
          {t("nav.title")}
        </h2>
        <ul className={styles.list}>
          {NAV_ITEMS.map((item) => (
            <li key={item.id}>
              <Link
                to={item.to}
                className={styles.link}
                data-nav={item.id}
                activeOptions={{ exact: item.exact ?? false, includeSearch: false }}
                activeProps={{ "aria-current": "page" }}
                onClick={onClose}
              >
                <item.icon size={18} aria-hidden="true" />
                <span>{t(item.labelKey)}</span>
                {item.badge && dbOpen && (
                  <Suspense fallback={null}>
                    <item.badge />
                  </Suspense>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <footer className={styles.footer}>
        {preferences != null && (
          <section className={styles.preferences} aria-labelledby="sidebar-preferences">
            <h2 id="sidebar-preferences" className={styles.title}>
              {t("shell.preferences")}
            </h2>
            {preferences}
          </section>
        )}
        <LegalLinks className={styles.legal} />
      </footer>
    </div>
  );
}
