// The workspace the user works in, remembered on this device (localStorage; wiped at sign-out).
// Falls back to the personal workspace when nothing, or a workspace the user left, is remembered.
import { useCallback, useSyncExternalStore } from "react";
import type { Workspace } from "../api/types";

export const ACTIVE_WORKSPACE_KEY = "patrimonio.activeWorkspace";
const CHANGE_EVENT = "patrimonio:active-workspace";

function read(): string | null {
  try {
    return window.localStorage.getItem(ACTIVE_WORKSPACE_KEY);
  } catch {
    return null;
  }
}

function subscribe(onChange: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === ACTIVE_WORKSPACE_KEY || event.key === null) onChange();
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener(CHANGE_EVENT, onChange);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener(CHANGE_EVENT, onChange);
  };
}

/** The remembered id if it is still one of `workspaces`, else the personal one, else the first. */
export function pickActiveWorkspace(workspaces: readonly Workspace[], rememberedId: string | null): Workspace | undefined {
  return (
    workspaces.find((w) => w.id === rememberedId) ?? workspaces.find((w) => w.kind === "personal") ?? workspaces[0]
  );
}

export function useActiveWorkspace(workspaces: readonly Workspace[] | undefined) {
  const rememberedId = useSyncExternalStore(subscribe, read, () => null);
  const active = workspaces ? pickActiveWorkspace(workspaces, rememberedId) : undefined;
  const setActive = useCallback((id: string) => {
    try {
      window.localStorage.setItem(ACTIVE_WORKSPACE_KEY, id);
    } catch {
      // Blocked storage: the choice cannot be remembered.
    }
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }, []);
  return { active, setActive };
}
