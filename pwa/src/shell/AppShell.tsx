// The signed-in app: sidebar ("Your Wealth"), top bar and the scrollable main area where routes
// render, around the user's device database and its sync. On phones the sidebar is a drawer behind
// the menu button, and the language and theme switches move into it so the top bar keeps only the
// workspace (by name), the sync status and the user menu.
import { Outlet, useRouter } from "@tanstack/react-router";
import { use, useEffect, useRef, useState, type ReactNode } from "react";
import { useMe } from "../api/queries";
import { announceSessionChanged } from "../auth/signOut";
import { MAIN_SCROLL_ID } from "../router/config";
import { DeviceDataGate } from "../sync/DeviceData";
import styles from "./AppShell.module.css";
import { DevicePreferences } from "./DevicePreferences";
import { InLayoutContext } from "./layoutContext";
import { Sidebar } from "./Sidebar";
import { SkipLink } from "./SkipLink";
import { loadedSyncModules, loadSyncModules } from "./syncModules";
import { TopBar } from "./TopBar";
import { PHONE_QUERY, useMediaQuery } from "./useMediaQuery";
import { UserMenuSlot } from "./UserMenuSlot";
import { WorkspaceSwitcher } from "./WorkspaceSwitcher";

const SIDEBAR_ID = "app-sidebar";

/**
 * When the session ends while a screen is open (the server closed the sync socket with 4401, another
 * device signed this one out, an admin disabled the account), the user query turns null; the routes'
 * guards run again at once, so the screen gives way to sign-in (and back here after it) instead of
 * staying until the next navigation. Nothing is wiped: changes not sent yet stay on the device. The
 * vaults unlocked in this tab lock (announceSessionChanged): whoever signs in next does not find them
 * open.
 */
function useLeaveWhenSignedOut(me: unknown) {
  const router = useRouter({ warn: false });
  const signedIn = useRef(me != null);
  useEffect(() => {
    if (signedIn.current && me === null) {
      announceSessionChanged();
      void router?.invalidate();
    }
    signedIn.current = me != null;
  }, [me, router]);
}

export function AppShell({ children }: { children?: ReactNode }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const mainRef = useRef<HTMLElement>(null);
  const { data: me } = useMe();
  useLeaveWhenSignedOut(me);
  const phone = useMediaQuery(PHONE_QUERY);
  // Loaded with the shell's code by the routes; suspends only if something renders the shell first.
  const { DeviceSync, SyncStatus } = loadedSyncModules() ?? use(loadSyncModules());

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
    document.querySelector<HTMLElement>(`#${SIDEBAR_ID} nav a`)?.focus();
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [menuOpen]);

  return (
    // The signed-in user's device database and its sync, for the top bar and every screen.
    <DeviceSync user={me?.user} workspaceIds={me?.workspaces.map((w) => w.id) ?? []}>
      <InLayoutContext.Provider value={true}>
        <div className={styles.shell} data-menu-open={menuOpen} data-testid="app-shell">
          <SkipLink target={mainRef} />
          <Sidebar id={SIDEBAR_ID} open={menuOpen} onClose={() => setMenuOpen(false)} preferences={phone ? <DevicePreferences /> : undefined} />
          <div className={styles.backdrop} aria-hidden="true" onClick={() => setMenuOpen(false)} />
          <div className={styles.body}>
            <TopBar
              sidebarId={SIDEBAR_ID}
              menuOpen={menuOpen}
              onToggleMenu={() => setMenuOpen((open) => !open)}
              preferences={phone ? undefined : <DevicePreferences />}
              userMenu={me ? <UserMenuSlot user={me.user} /> : undefined}
              workspaceSwitcher={me?.onboarding.completed ? <WorkspaceSwitcher fallback={me.workspaces} /> : undefined}
              syncStatus={me ? <SyncStatus /> : undefined}
            />
            <main
              ref={mainRef}
              id={MAIN_SCROLL_ID}
              className={styles.main}
              data-testid="main-scroll"
              data-scroll-restoration-id={MAIN_SCROLL_ID}
              tabIndex={-1}
            >
              {children ?? (
                // A screen that reads device data says so when the device database cannot be read.
                <DeviceDataGate>
                  <Outlet />
                </DeviceDataGate>
              )}
            </main>
          </div>
        </div>
      </InLayoutContext.Provider>
    </DeviceSync>
  );
}
