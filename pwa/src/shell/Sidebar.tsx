import { Link } from "@tanstack/react-router";
import { X } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Logo } from "./Logo";
import { NAV_ITEMS } from "./navigation";

interface SidebarProps {
  id: string;
  /** On narrow screens: whether the drawer is open. Wide screens always show the sidebar. */
  open: boolean;
  onClose: () => void;
}

export function Sidebar({ id, open, onClose }: SidebarProps) {
  const { t } = useTranslation();
  return (
    <div id={id} className="sidebar" data-open={open}>
      <div className="sidebar-brand">
        <Logo />
        <span className="sidebar-brand-name">{t("app.name")}</span>
        <button type="button" className="icon-button sidebar-close" onClick={onClose} aria-label={t("nav.closeMenu")}>
          <X size={18} aria-hidden="true" />
        </button>
      </div>
      <nav className="sidebar-nav" aria-label={t("nav.label")}>
        <h2 id="sidebar-title" className="sidebar-title" data-testid="sidebar-title">
          {t("nav.title")}
        </h2>
        <ul className="sidebar-list">
          {NAV_ITEMS.map((item) => (
            <li key={item.to}>
              <Link
                to={item.to}
                className="sidebar-link"
                activeOptions={{ exact: item.exact, includeSearch: false }}
                activeProps={{ "aria-current": "page" }}
                onClick={onClose}
              >
                <item.icon size={18} aria-hidden="true" />
                <span>{t(item.labelKey)}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
