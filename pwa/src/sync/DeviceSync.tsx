// The signed-in user's device database and its sync: opens the database (one per user), runs the
// SyncClient in the leader tab (Web Locks) and makes the database available to the hooks of
// @patrimonio/clientdb. Signed out (no user), there is no database and nothing syncs.
import { ClientDb, ClientDbProvider, SyncClient, type SyncClientOptions } from "@patrimonio/clientdb";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { queryKeys } from "../api/queries";
import { useLanguage } from "../i18n/useLanguage";

/** The sync socket's address for a page served from `location` (same origin: the session cookie
 * goes with the handshake). */
export function syncUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/v1/sync`;
}

/** The device database name of a user: each user who signs in on this browser gets their own. */
export function deviceDbName(userId: string): string {
  return `patrimonio-${userId}`;
}

/** Whether this browser can hold a device database and elect a sync leader. */
function supported(): boolean {
  return typeof indexedDB !== "undefined" && typeof navigator !== "undefined" && "locks" in navigator;
}

/** Opens the device database of `userId` (null while signed out, opening, or unsupported). */
export function useDeviceDb(userId: string | undefined): ClientDb | null {
  const [opened, setOpened] = useState<{ userId: string; db: ClientDb } | null>(null);
  useEffect(() => {
    if (userId === undefined || !supported()) return;
    let cancelled = false;
    let db: ClientDb | undefined;
    ClientDb.open({ name: deviceDbName(userId) }).then(
      (handle) => {
        if (cancelled) handle.close();
        else {
          db = handle;
          setOpened({ userId, db: handle });
        }
      },
      (err: unknown) => console.error("The device database could not be opened.", err),
    );
    return () => {
      cancelled = true;
      db?.close();
    };
  }, [userId]);
  return opened !== null && opened.userId === userId ? opened.db : null;
}

interface DeviceSyncProps {
  /** The signed-in user and their workspaces (GET /api/v1/me); undefined while signed out. */
  user: { id: string } | undefined;
  workspaceIds: readonly string[];
  children?: ReactNode;
  /** Tests inject the socket and lock manager. */
  clientOptions?: Partial<SyncClientOptions>;
}

/** Provides the device database to everything inside and keeps it in sync while signed in. */
export function DeviceSync({ user, workspaceIds, children, clientOptions }: DeviceSyncProps) {
  const db = useDeviceDb(user?.id);
  const queryClient = useQueryClient();
  const { language } = useLanguage();
  const workspaces = [...workspaceIds].sort().join(",");

  useEffect(() => {
    if (!db || workspaces === "") return;
    const ids = workspaces.split(",");
    const client = new SyncClient(db, {
      url: syncUrl(window.location),
      workspaces: () => ids,
      language,
      // The session ended: let the session guard take the user to sign-in.
      onFatal: (code) => {
        if (code === "unauthorized") void queryClient.invalidateQueries({ queryKey: queryKeys.me });
      },
      ...clientOptions,
    });
    client.start();
    return () => {
      void client.stop();
    };
  }, [db, workspaces, language, queryClient, clientOptions]);

  return <ClientDbProvider db={db}>{children}</ClientDbProvider>;
}
