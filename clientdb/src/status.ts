// The sync status the UI shows (top bar): computed from what the device database holds, so every
// tab shows the same thing whichever tab is the leader.
import type { CursorMeta, LinkMeta } from "./db";

export type SyncState = "synced" | "syncing" | "connecting" | "offline";

export interface SyncStatus {
  /** offline: no connection to the server; connecting: the leader's first attempt to connect
   * since it started or the network came back (not a retry after a lost connection, which stays
   * offline); syncing: connected with work in flight (pushing, catching up, a snapshot); synced:
   * connected, nothing pending, caught up. */
  state: SyncState;
  /** Mutations waiting to be pushed. */
  pending: number;
  /** Mutations the server refused, kept until fixed or discarded. */
  rejected: number;
  /** Shown conflicts (losing values that can be restored). */
  conflicts: number;
  /** Last moment (ms) the device was fully synced; null: never. */
  lastSyncedAt: number | null;
  /** A first sync or resync in progress: records received so far. */
  snapshot: { received: number } | null;
  /** Why the leader stopped syncing (a server error code: unauthorized, protocol_version, ...). */
  error: string | null;
}

export interface StatusInputs {
  link: LinkMeta | undefined;
  pending: number;
  rejected: number;
  conflicts: number;
  cursors: readonly CursorMeta[];
}

export function computeStatus(inputs: StatusInputs): SyncStatus {
  const { link, pending, rejected, conflicts, cursors } = inputs;
  const snapshots = cursors.filter((c) => c.snapshot !== undefined);
  const snapshot = snapshots.length === 0 ? null : { received: snapshots.reduce((n, c) => n + (c.snapshot?.received ?? 0), 0) };
  const online = link?.state === "online";
  let state: SyncState = link?.state === "connecting" && link.error === undefined ? "connecting" : "offline";
  if (online) {
    const catchingUp = cursors.some((c) => !c.caughtUp) || snapshot !== null;
    state = link.busy || pending > 0 || catchingUp ? "syncing" : "synced";
  }
  return {
    state,
    pending,
    rejected,
    conflicts,
    lastSyncedAt: link?.lastSyncedAt ?? null,
    snapshot,
    error: link?.error ?? null,
  };
}
