import { Outlet } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MAIN_SCROLL_ID } from "../router/config";
import { Sidebar } from "./Sidebar";
import { TopBar } from "./TopBar";

const SIDEBAR_ID = "app-sidebar";

/** Sidebar + top bar + the scrollable main area where routes render. */
export function AppShell() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);

  // The drawer (narrow screens) closes with Escape, giving focus back to the menu button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      document.querySelector<HTMLElement>(`[aria-controls="${SIDEBAR_ID}"]`)?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    // Move focus into the drawer so keyboard users land on its links.
    document.querySelector<HTMLElement>(`#${SIDEBAR_ID} .sidebar-link`)?.focus();
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);

  return (
    <div className="shell" data-menu-open={menuOpen}>
      <a
        className="skip-link"
        href={`#${MAIN_SCROLL_ID}`}
        onClick={(event) => {
          event.preventDefault();
          mainRef.current?.focus();
        }}
      >
        {t("app.skipToContent")}
      </a>
      <Sidebar id={SIDEBAR_ID} open={menuOpen} onClose={() => setMenuOpen(false)} />
      <div className="shell-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />
      <div className="shell-body">
        <TopBar sidebarId={SIDEBAR_ID} menuOpen={menuOpen} onToggleMenu={() => setMenuOpen((open) => !open)} />
        <main
          ref={mainRef}
          id={MAIN_SCROLL_ID}
          className="main"
          data-testid="main-scroll"
          data-scroll-restoration-id={MAIN_SCROLL_ID}
          tabIndex={-1}
        >
          <Outlet />
        </main>
      </div>
    </div>
  );
}
