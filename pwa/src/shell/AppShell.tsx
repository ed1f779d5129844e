import { Outlet } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useMe } from "../api/queries";
import { MAIN_SCROLL_ID } from "../router/config";
import { DeviceSync } from "../sync/DeviceSync";
import { SyncStatus } from "../sync/SyncStatus";
import { Sidebar } from "./Sidebar";
import { TopBar } from "./TopBar";
import { UserMenu } from "./UserMenu";
import { WorkspaceSwitcher } from "./WorkspaceSwitcher";

const SIDEBAR_ID = "app-sidebar";

/** Sidebar + top bar + the scrollable main area where routes render. */
export function AppShell() {
  const { t } = useTranslation();
  const [menuOpen, setMenuOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const { data: me } = useMe();

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
    // The signed-in user's device database and its sync, for the top bar and every screen.
    <DeviceSync user={me?.user} workspaceIds={me?.workspaces.map((w) => w.id) ?? []}>
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
        <TopBar
          sidebarId={SIDEBAR_ID}
          menuOpen={menuOpen}
          onToggleMenu={() => setMenuOpen((open) => !open)}
          userMenu={me ? <UserMenu user={me.user} /> : undefined}
          workspaceSwitcher={me?.onboarding.completed ? <WorkspaceSwitcher fallback={me.workspaces} /> : undefined}
          syncStatus={me ? <SyncStatus /> : undefined}
        />
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
    </DeviceSync>
  );
}
