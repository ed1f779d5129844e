// The device database and its sync, loaded after the first paint (see engineContext.ts): opens the
// user's database, runs the SyncClient in the leader tab (Web Locks) and hands the database to
// DeviceSync, which provides it to the screens; and the live sync indicator.
import { ClientDb, SyncClient, useSyncStatus, type SyncClientOptions } from "@patrimonio/clientdb";
import { useEffect, useState } from "react";
import type { Language } from "../i18n/i18n";
import { deviceDbName, syncUrl } from "./names";
import { SyncStatusPending, SyncStatusView } from "./SyncStatus";

/**
 * Asks the browser to keep this site's storage under disk pressure (navigator.storage.persist):
 * without it, a browser may evict the device database, and with it changes not sent yet. Chromium
 * answers from the site's standing without asking the user; Firefox may ask once. Asked only while
 * not persistent yet; a refusal, or a browser without the API, changes nothing.
 */
export async function keepStorage(storage: Pick<StorageManager, "persist" | "persisted"> | undefined = globalThis.navigator?.storage): Promise<boolean> {
  try {
    if (!storage?.persist || !storage.persisted) return false;
    if (await storage.persisted()) return true;
    return await storage.persist();
  } catch {
    return false;
  }
}

/**
 * Opens the device database of `userId` (null while signed out or opening). A handle that closes
 * for good under us is dropped: deleted (another tab signed out; this one leaves too, see
 * SessionSync) it stays null, so nothing makes the wiped database again; closed by the browser, or
 * replaced by the database another tab made under the same name, it is opened again.
 */
export function useDeviceDb(userId: string | undefined): ClientDb | null {
  const [opened, setOpened] = useState<{ userId: string; db: ClientDb } | null>(null);
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (userId === undefined) return;
    let cancelled = false;
    let db: ClientDb | undefined;
    let unsubscribe = () => {};
    ClientDb.open({ name: deviceDbName(userId) }).then(
      (handle) => {
        if (cancelled) {
          handle.close();
          return;
        }
        db = handle;
        setOpened({ userId, db: handle });
        void keepStorage();
        unsubscribe = handle.onClosed((reason) => {
          if (cancelled) return;
          setOpened((o) => (o?.db === handle ? null : o));
          if (reason === "lost" || reason === "replaced") setGeneration((g) => g + 1);
        });
      },
      (err: unknown) => console.error("The device database could not be opened.", err),
    );
    return () => {
      cancelled = true;
      unsubscribe();
      db?.close();
    };
  }, [userId, generation]);
  return opened !== null && opened.userId === userId ? opened.db : null;
}

export interface DeviceEngineProps {
  userId: string;
  /** The user's workspace ids, sorted, comma-separated ("" for none). */
  workspaces: string;
  language: Language;
  /** The open database (null while opening). */
  onOpened: (opened: { userId: string; db: ClientDb } | null) => void;
  /** The server ended the session. */
  onUnauthorized: () => void;
  clientOptions?: Partial<SyncClientOptions> | undefined;
}

/** Opens the database and keeps it in sync; renders nothing. */
export function DeviceEngine({ userId, workspaces, language, onOpened, onUnauthorized, clientOptions }: DeviceEngineProps) {
  const db = useDeviceDb(userId);

  useEffect(() => {
    onOpened(db ? { userId, db } : null);
  }, [db, userId, onOpened]);

  useEffect(() => {
    if (!db || workspaces === "") return;
    const ids = workspaces.split(",");
    const client = new SyncClient(db, {
      url: syncUrl(window.location),
      workspaces: () => ids,
      language,
      // The session ended: let the session guard take the user to sign-in.
      onFatal: (code) => {
        if (code === "unauthorized") onUnauthorized();
      },
      ...clientOptions,
    });
    client.start();
    return () => {
      void client.stop();
    };
  }, [db, workspaces, language, onUnauthorized, clientOptions]);

  return null;
}

/** The indicator fed live from the device database. */
export function LiveSyncStatus() {
  const status = useSyncStatus();
  if (status === undefined) return <SyncStatusPending />;
  return <SyncStatusView status={status} />;
}
