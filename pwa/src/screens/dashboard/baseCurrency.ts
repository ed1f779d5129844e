// The base currency of a workspace (default EUR): the currency every figure of the dashboard and the
// wealth map is shown in. DECISION (this session): kept on the device, per workspace (localStorage),
// so it works offline at once; it is not synced yet (a synced workspace-settings record is the next
// step, see the README). Changing it only changes how figures are shown, never a record.
import { useCallback, useSyncExternalStore } from "react";

export const DEFAULT_BASE = "EUR";
const KEY = "patrimonio.baseCurrency.";
const listeners = new Set<() => void>();

function read(workspaceId: string | undefined): string {
  if (!workspaceId) return DEFAULT_BASE;
  try {
    const v = localStorage.getItem(KEY + workspaceId);
    return v && /^[A-Z]{3}$/.test(v) ? v : DEFAULT_BASE;
  } catch {
    return DEFAULT_BASE;
  }
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

/** [base currency, set it] for a workspace. */
export function useBaseCurrency(workspaceId: string | undefined): [string, (code: string) => void] {
  const snapshot = useCallback(() => read(workspaceId), [workspaceId]);
  const base = useSyncExternalStore(subscribe, snapshot, snapshot);
  const set = useCallback(
    (code: string) => {
      if (!workspaceId || !/^[A-Z]{3}$/.test(code)) return;
      try {
        localStorage.setItem(KEY + workspaceId, code);
      } catch {
        /* private mode: the choice lasts until the page is closed */
      }
      for (const l of listeners) l();
    },
    [workspaceId],
  );
  return [base, set];
}
