// The base currency of a workspace (default EUR): the currency every figure of the dashboard and the
// wealth map is shown in, the same for every member and device of the workspace. The server keeps
// it (GET/PUT /api/v1/workspaces/{id}/base-currency, server/fx/settings.go); the device keeps a copy
// (localStorage, per workspace) so figures show at once and offline. A change made offline is kept
// as pending and sent when the browser is back online; until then the server's value does not
// overwrite it. Owners and editors change it; viewers see it (the server refuses their change too).
// Changing it only changes how figures are shown, never a record. Sign-out wipes localStorage.
import { useCallback, useEffect, useSyncExternalStore } from "react";
import { useApi } from "../../api/ApiProvider";
import type { ApiClient } from "../../api/client";

export const DEFAULT_BASE = "EUR";
const KEY = "patrimonio.baseCurrency.";
const CODE = /^[A-Z]{3}$/;
const listeners = new Set<() => void>();

interface Held {
  code: string;
  /** Chosen on this device and not yet accepted by the server. */
  pending: boolean;
}

/** What the device holds for a workspace (an older copy is a bare code). */
export function readHeld(workspaceId: string): Held | undefined {
  try {
    const v = localStorage.getItem(KEY + workspaceId);
    if (!v) return undefined;
    if (CODE.test(v)) return { code: v, pending: false };
    const parsed = JSON.parse(v) as Partial<Held>;
    return typeof parsed.code === "string" && CODE.test(parsed.code) ? { code: parsed.code, pending: parsed.pending === true } : undefined;
  } catch {
    return undefined;
  }
}

function write(workspaceId: string, held: Held) {
  try {
    localStorage.setItem(KEY + workspaceId, JSON.stringify(held));
  } catch {
    /* private mode: the choice lasts until the page is closed */
  }
  for (const l of listeners) l();
}

function subscribe(onChange: () => void) {
  listeners.add(onChange);
  const onStorage = (e: StorageEvent) => {
    if (e.key?.startsWith(KEY)) onChange();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener("storage", onStorage);
  };
}

const path = (workspaceId: string) => `/workspaces/${encodeURIComponent(workspaceId)}/base-currency`;

/** Sends a pending choice, or takes the server's value; quiet when offline (tried again later). */
export async function syncBaseCurrency(api: ApiClient, workspaceId: string): Promise<void> {
  try {
    const held = readHeld(workspaceId);
    if (held?.pending) {
      const saved = await api.request<{ baseCurrency: string }>("PUT", path(workspaceId), { body: { baseCurrency: held.code } });
      // Another choice made meanwhile stays pending for the next round.
      const now = readHeld(workspaceId);
      if (now?.code === held.code) write(workspaceId, { code: saved.baseCurrency, pending: false });
      return;
    }
    const server = await api.get<{ baseCurrency: string }>(path(workspaceId));
    if (!CODE.test(server.baseCurrency)) return;
    const now = readHeld(workspaceId);
    if (!now?.pending && now?.code !== server.baseCurrency) write(workspaceId, { code: server.baseCurrency, pending: false });
  } catch (error) {
    // Offline, or a viewer whose pending choice was refused: the refusal drops the choice.
    const status = (error as { status?: number }).status;
    if (status === 403) {
      const held = readHeld(workspaceId);
      if (held?.pending) write(workspaceId, { code: held.code, pending: false });
      void syncBaseCurrency(api, workspaceId);
    }
  }
}

/** [base currency, set it, whether a change is waiting to reach the server] for a workspace. */
export function useBaseCurrency(workspaceId: string | undefined): [string, (code: string) => void, boolean] {
  const api = useApi();
  const snapshot = useCallback(() => (workspaceId ? (readHeld(workspaceId) ? JSON.stringify(readHeld(workspaceId)) : "") : ""), [workspaceId]);
  const raw = useSyncExternalStore(subscribe, snapshot, snapshot);
  const held = raw ? (JSON.parse(raw) as Held) : undefined;

  // Asks the server when the workspace opens and whenever the browser comes back online.
  useEffect(() => {
    if (!workspaceId) return;
    const run = () => void syncBaseCurrency(api, workspaceId);
    if (typeof navigator === "undefined" || navigator.onLine !== false) run();
    window.addEventListener("online", run);
    return () => window.removeEventListener("online", run);
  }, [api, workspaceId]);

  const set = useCallback(
    (code: string) => {
      if (!workspaceId || !CODE.test(code)) return;
      write(workspaceId, { code, pending: true });
      void syncBaseCurrency(api, workspaceId);
    },
    [api, workspaceId],
  );
  return [held?.code ?? DEFAULT_BASE, set, held?.pending ?? false];
}
