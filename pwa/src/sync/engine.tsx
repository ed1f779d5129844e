// The device database and its sync, loaded after the first paint (see engineContext.ts): opens the
// user's database, runs the SyncClient in the leader tab (Web Locks) and hands the database to
// DeviceSync, which provides it to the screens; and the live sync indicator.
import { backoffDelay, ClientDb, realTimers, SyncClient, useSyncStatus, type SyncClientOptions, type SyncEvent } from "@patrimonio/clientdb";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { invalidateWorkspaces } from "../api/workspaces";
import type { Language } from "../i18n/i18n";
import type { OpenFailure, OpenFailureReason } from "./engineContext";
import { deviceDbName, syncUrl } from "./names";
import { compareServerVersions, setServerBehind, type ServerSide } from "./serverBehind";
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

/** Opens a device database (ClientDb.open; tests pass one that fails as a browser may). `onBlocked`
 * is called while the open waits for another tab to close. */
export type OpenDeviceDb = (name: string, hooks?: { onBlocked?: () => void }) => Promise<ClientDb>;

const openDeviceDb: OpenDeviceDb = (name, hooks) => ClientDb.open({ name, ...(hooks?.onBlocked ? { onBlocked: hooks.onBlocked } : {}) });

/** The names of an error and of the errors it wraps (Dexie's OpenFailedError keeps the browser's in
 * `inner`). */
function errorNames(err: unknown): string[] {
  const names: string[] = [];
  for (let e = err, depth = 0; e !== null && typeof e === "object" && depth < 5; e = (e as { inner?: unknown }).inner, depth++) {
    const name = (e as { name?: unknown }).name;
    if (typeof name === "string") names.push(name);
  }
  return names;
}

/** Why an open of the device database failed, when the error says (see OpenFailureReason). */
export function openFailureReason(err: unknown): OpenFailureReason | null {
  const names = errorNames(err);
  if (names.includes("QuotaExceededError")) return "storage_full";
  if (names.includes("VersionError")) return "version";
  if (names.some((n) => ["InvalidStateError", "SecurityError", "NotAllowedError", "MissingAPIError", "InvalidAccessError"].includes(n))) return "refused";
  return null;
}

/**
 * Opens the device database of `userId` (db null while signed out or opening). A handle that closes
 * for good under us is dropped: deleted (another tab signed out; this one leaves too, see
 * SessionSync) it stays null, so nothing makes the wiped database again; closed by the browser, or
 * replaced by the database another tab made under the same name, it is opened again. A database
 * that cannot be opened (storage full or broken, a private mode without IndexedDB), or whose open
 * waits for another tab ("blocked"), gives `failed` with its reason (null: unknown) and a `retry`
 * that tries again; a blocked open that goes through after all clears it.
 */
export function useDeviceDb(
  userId: string | undefined,
  open: OpenDeviceDb = openDeviceDb,
): { db: ClientDb | null; failed: { reason: OpenFailureReason | null } | null; retry: () => void } {
  const [opened, setOpened] = useState<{ userId: string; db: ClientDb } | null>(null);
  const [failed, setFailed] = useState<{ userId: string; generation: number; reason: OpenFailureReason | null } | null>(null);
  const [generation, setGeneration] = useState(0);
  const retry = useCallback(() => setGeneration((g) => g + 1), []);
  useEffect(() => {
    if (userId === undefined) return;
    let cancelled = false;
    let db: ClientDb | undefined;
    let unsubscribe = () => {};
    const onBlocked = () => {
      if (!cancelled) setFailed({ userId, generation, reason: "blocked" });
    };
    open(deviceDbName(userId), { onBlocked }).then(
      (handle) => {
        if (cancelled) {
          handle.close();
          return;
        }
        db = handle;
        setFailed(null);
        setOpened({ userId, db: handle });
        void keepStorage();
        unsubscribe = handle.onClosed((reason) => {
          if (cancelled) return;
          setOpened((o) => (o?.db === handle ? null : o));
          if (reason === "lost" || reason === "replaced") setGeneration((g) => g + 1);
        });
      },
      (err: unknown) => {
        console.error("The device database could not be opened.", err);
        if (!cancelled) setFailed({ userId, generation, reason: openFailureReason(err) });
      },
    );
    return () => {
      cancelled = true;
      unsubscribe();
      db?.close();
    };
  }, [userId, generation, open]);
  const db = opened !== null && opened.userId === userId ? opened.db : null;
  return {
    db,
    failed: db === null && failed !== null && failed.userId === userId && failed.generation === generation ? { reason: failed.reason } : null,
    retry,
  };
}

/** A connection welcomed this long before an unauthorized refusal starts the restarts' backoff
 * again (as the sync client does for its reconnects). */
const STABLE_MS = 120_000;

/** How long a device whose server is older than its app waits before it tries again (a hello,
 * refused until the server is updated). */
export const SERVER_BEHIND_RETRY_MS = 60_000;

/** Errors of the sync client go to the console (the link row tells the user what they need to
 * know: storage full, a version too old...). */
function logSyncEvent(event: SyncEvent): void {
  if (event.type === "error") console.error("Sync:", event.detail);
}

export interface DeviceEngineProps {
  userId: string;
  /** The user's workspace ids, sorted, comma-separated ("" for none). */
  workspaces: string;
  language: Language;
  /** The open database (null while opening). */
  onOpened: (opened: { userId: string; db: ClientDb } | null) => void;
  /** The device database could not be opened (or waits for another tab): why, when known, and a
   * `retry` that tries again (null once it opened, or while it is trying). */
  onOpenFailed: (failure: OpenFailure | null) => void;
  /** The server refused the socket as unauthorized: asks /me again and resolves to the id of the
   * user signed in now (null: nobody). The same user (a refusal during a session refresh) makes the
   * sync try again after a backoff; nobody or another user stops it (the session guard takes over). */
  onUnauthorized: () => Promise<string | null>;
  /** The server refused this app's version (protocol_version, schema_version) and is newer. */
  onUpdateRequired: () => void;
  /** The server denied a workspace of the list (the user is no longer a member): fetch it again. */
  onAccessDenied: () => void;
  clientOptions?: Partial<SyncClientOptions> | undefined;
  /** Tests pass an open that fails. */
  open?: OpenDeviceDb | undefined;
  /** Which side a version refusal puts behind (tests pass their answer; serverBehind.ts). */
  compareVersions?: (() => Promise<ServerSide>) | undefined;
}

/** Opens the database and keeps it in sync; renders nothing. */
export function DeviceEngine({
  userId,
  workspaces,
  language,
  onOpened,
  onOpenFailed,
  onUnauthorized,
  onUpdateRequired,
  onAccessDenied,
  clientOptions,
  open,
  compareVersions = compareServerVersions,
}: DeviceEngineProps) {
  const { db, failed, retry } = useDeviceDb(userId, open);

  useEffect(() => {
    onOpened(db ? { userId, db } : null);
  }, [db, userId, onOpened]);

  const reason = failed?.reason;
  useEffect(() => {
    onOpenFailed(reason === undefined ? null : { reason, retry });
  }, [reason, retry, onOpenFailed]);

  useEffect(() => {
    if (!db || workspaces === "") return;
    const ids = workspaces.split(",");
    const timers = clientOptions?.timers ?? realTimers;
    let ended = false;
    // Restarts after an unauthorized refusal that /me did not confirm (see onUnauthorized), and when
    // the last welcome came: a connection that stayed up a while starts the backoff again.
    let restarts = 0;
    let welcomedAt: number | undefined;
    let restartTimer: unknown;
    // (client is assigned below, before any refusal can call this.)
    const restartIn = (ms: number) => {
      restartTimer = timers.setTimeout(() => {
        if (!ended) client.start();
      }, ms);
    };
    const client = new SyncClient(db, {
      url: syncUrl(window.location, userId),
      workspaces: () => ids,
      language,
      onFatal: (code) => {
        // Refused as unauthorized: the session ended or changed hands (/me says so, and the session
        // guard takes the user to sign-in or to the other user's app), or it did not (a refusal while
        // the session was being refreshed): then the sync starts again after a backoff.
        if (code === "unauthorized") {
          if (welcomedAt !== undefined && Date.now() - welcomedAt >= STABLE_MS) restarts = 0;
          welcomedAt = undefined;
          onUnauthorized().then(
            (current) => {
              if (ended || current !== userId) return;
              restartIn(backoffDelay(restarts++, clientOptions?.backoff));
            },
            (err: unknown) => console.error("Sync: the session could not be checked.", err),
          );
        }
        // Another version: the server was updated (the app must be too), or it is older than the
        // app (rolled back): then every change waits on the device, and the sync tries again later.
        if (code === "protocol_version" || code === "schema_version") {
          compareVersions().then(
            (side) => {
              if (ended) return;
              if (side === "ahead") {
                onUpdateRequired();
                return;
              }
              setServerBehind(side === "behind");
              restartIn(SERVER_BEHIND_RETRY_MS);
            },
            (err: unknown) => console.error("Sync: the server's versions could not be compared.", err),
          );
        }
      },
      onAccessDenied,
      onEvent: (event) => {
        if (event.type === "welcome") {
          welcomedAt = Date.now();
          setServerBehind(false);
        }
        logSyncEvent(event);
      },
      ...clientOptions,
    });
    client.start();
    return () => {
      ended = true;
      timers.clearTimeout(restartTimer);
      void client.stop();
    };
  }, [db, userId, workspaces, language, onUnauthorized, onUpdateRequired, onAccessDenied, clientOptions, compareVersions]);

  return null;
}

/** The indicator fed live from the device database. */
export function LiveSyncStatus() {
  const status = useSyncStatus();
  useRolesAfterRefusals(status?.rejected);
  if (status === undefined) return <SyncStatusPending />;
  return <SyncStatusView status={status} />;
}

/**
 * A change the server refuses may mean that the user's role changed on another device (an owner made
 * them a viewer): the workspaces (with the role the screens read) are asked again whenever more
 * changes are refused than before, so the screens turn read-only without waiting for a reload.
 */
function useRolesAfterRefusals(rejected: number | undefined) {
  const queryClient = useQueryClient();
  const seen = useRef(rejected);
  useEffect(() => {
    if (rejected === undefined) return;
    if (seen.current !== undefined && rejected > seen.current) void invalidateWorkspaces(queryClient);
    seen.current = rejected;
  }, [rejected, queryClient]);
}
