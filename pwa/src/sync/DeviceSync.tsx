// The signed-in user's device database and its sync: renders its children at once and, after the
// first paint, loads the database engine (engine.tsx: opens the database, one per user, and runs the
// SyncClient in the leader tab), then makes the database available to the hooks of
// @patrimonio/clientdb. Until then (and signed out) the hooks see no database. The provider stays
// in place throughout, so nothing inside remounts when the database arrives.
import type { ClientDb, SyncClientOptions } from "@patrimonio/clientdb";
import { ClientDbProvider } from "@patrimonio/clientdb/context";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { queryKeys } from "../api/queries";
import { invalidateWorkspaces } from "../api/workspaces";
import { useLanguage } from "../i18n/useLanguage";
import { requireAppUpdate } from "../pwa/updateRequired";
import type { OpenDeviceDb } from "./engine";
import {
  deviceSyncSupported,
  DeviceSyncActive,
  DeviceSyncOpenFailed,
  DeviceSyncUnsupported,
  loadedSyncEngine,
  loadSyncEngine,
  whenIdle,
  type OpenFailure,
  type SyncEngine,
} from "./engineContext";

export { deviceDbName, syncUrl } from "./names";

interface DeviceSyncProps {
  /** The signed-in user and their workspaces (GET /api/v1/me); undefined while signed out. */
  user: { id: string } | undefined;
  workspaceIds: readonly string[];
  children?: ReactNode;
  /** Tests inject the socket and lock manager. */
  clientOptions?: Partial<SyncClientOptions>;
  /** Tests inject an open of the device database that fails. */
  open?: OpenDeviceDb;
}

/** Provides the device database to everything inside and keeps it in sync while signed in. */
export function DeviceSync({ user, workspaceIds, children, clientOptions, open }: DeviceSyncProps) {
  const supported = deviceSyncSupported();
  const active = user !== undefined && supported;
  const [engine, setEngine] = useState<SyncEngine | null>(loadedSyncEngine);
  // The engine's chunk could not be loaded (offline before the app was saved on this device): the
  // attempt to load it again.
  const [engineFailed, setEngineFailed] = useState(0);
  const [engineAttempt, setEngineAttempt] = useState(0);
  const [openFailed, setOpenFailed] = useState<OpenFailure | null>(null);
  const [opened, setOpened] = useState<{ userId: string; db: ClientDb } | null>(null);
  const retryEngine = useCallback(() => setEngineAttempt((n) => n + 1), []);
  const queryClient = useQueryClient();
  const { language } = useLanguage();
  const workspaces = [...workspaceIds].sort().join(",");

  // Load the engine once the page has painted (and the browser is idle, at most 2 s later).
  useEffect(() => {
    if (!active || engine !== null) return;
    let cancelled = false;
    const cancel = whenIdle(() => {
      loadSyncEngine().then(
        (loadedEngine) => {
          if (!cancelled) setEngine(loadedEngine);
        },
        (err: unknown) => {
          console.error("The device database could not be loaded.", err);
          if (!cancelled) setEngineFailed(engineAttempt + 1);
        },
      );
    });
    return () => {
      cancelled = true;
      cancel();
    };
  }, [active, engine, engineAttempt]);

  // The socket was refused as unauthorized: /me again (observed or not) says who is signed in now.
  // Nobody, or another user: the session guard takes over (sign-in, or the other user's app). Still
  // this user (a refusal while the session was refreshed, a /me that could not be reached): the
  // engine tries again with backoff.
  const onUnauthorized = useCallback(async () => {
    await queryClient.invalidateQueries({ queryKey: queryKeys.me, refetchType: "all" });
    return queryClient.getQueryData<{ user: { id: string } } | null>(queryKeys.me)?.user.id ?? null;
  }, [queryClient]);
  // A workspace was denied (the user was removed from it, or it was deleted): /me again, whose new
  // list of workspaces restarts the sync without it, and the lists of workspaces (the switcher, the
  // active workspace and the role the screens read come from them) with the workspace's detail.
  const onAccessDenied = useCallback(() => void invalidateWorkspaces(queryClient), [queryClient]);

  const db = active && opened !== null && opened.userId === user.id ? opened.db : null;
  let failure: OpenFailure | null = null;
  if (active && db === null) {
    if (engine === null && engineFailed > engineAttempt) failure = { reason: "engine", retry: retryEngine };
    else if (engine !== null) failure = openFailed;
  }
  return (
    <DeviceSyncActive.Provider value={active}>
      <DeviceSyncUnsupported.Provider value={user !== undefined && !supported}>
        <DeviceSyncOpenFailed.Provider value={failure}>
          {active && engine !== null && (
            <engine.DeviceEngine
              userId={user.id}
              workspaces={workspaces}
              language={language}
              onOpened={setOpened}
              onOpenFailed={setOpenFailed}
              onUnauthorized={onUnauthorized}
              onUpdateRequired={requireAppUpdate}
              onAccessDenied={onAccessDenied}
              clientOptions={clientOptions}
              open={open}
            />
          )}
          <ClientDbProvider db={db}>{children}</ClientDbProvider>
        </DeviceSyncOpenFailed.Provider>
      </DeviceSyncUnsupported.Provider>
    </DeviceSyncActive.Provider>
  );
}
