// The dashboard's last figures of today, kept on the device (localStorage, per workspace) so a reload
// shows them at once, marked as being updated, while the device database opens and the worker
// recomputes them from the records (a large workspace takes seconds); the fresh figures replace them
// as soon as they are ready. Only today's figures (net worth and distribution), for the base
// currency and the day they were computed for; nothing that is not already in the device database.
// Sign-out wipes localStorage with the rest of the device.
import type { NowFigures } from "../../figures/types";

const KEY = "patrimonio.dashboardFigures.";
const VERSION = 1;
/** Lists longer than this are cut (the fresh figures bring them whole). */
const LIST_LIMIT = 200;

export interface Snapshot {
  base: string;
  today: string;
  /** When they were computed (ms since the epoch). */
  savedAt: number;
  now: NowFigures;
}

export function readSnapshot(workspaceId: string | undefined): Snapshot | undefined {
  if (!workspaceId) return undefined;
  try {
    const raw = localStorage.getItem(KEY + workspaceId);
    if (!raw) return undefined;
    const s = JSON.parse(raw) as Snapshot & { v?: number };
    if (s.v !== VERSION || typeof s.base !== "string" || !s.now?.netWorth || !s.now.distribution) return undefined;
    return { base: s.base, today: s.today, savedAt: s.savedAt, now: s.now };
  } catch {
    return undefined;
  }
}

export function writeSnapshot(workspaceId: string, snapshot: Snapshot): void {
  const { now } = snapshot;
  const small: NowFigures = {
    ...now,
    netWorth: { ...now.netWorth, missing: now.netWorth.missing.slice(0, LIST_LIMIT), noValue: now.netWorth.noValue.slice(0, LIST_LIMIT) },
    // The map's per-asset figures: only for small workspaces (the fresh figures bring them).
    perAsset: Object.keys(now.perAsset).length <= LIST_LIMIT ? now.perAsset : {},
  };
  try {
    localStorage.setItem(KEY + workspaceId, JSON.stringify({ v: VERSION, ...snapshot, now: small }));
  } catch {
    /* full or blocked storage: the next visit computes them again */
  }
}
