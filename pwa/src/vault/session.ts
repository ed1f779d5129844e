// The unlocked vaults of this tab, in memory only (never localStorage, IndexedDB or a worker): a
// reload, closing the tab, signing out or 5 minutes without any use (IDLE_LOCK_MS: no key press,
// click or touch in the app) locks every vault again. Each workspace has its own vault.
import type { VaultKey } from "@patrimonio/shared-schema";
import { useSyncExternalStore } from "react";
import { SIGN_OUT_EVENT } from "../auth/signOut";
import type { SessionKey } from "./cipher";
import { unwrapVaultKey, WrongPassphraseError } from "./keys";

/** Idle time after which an unlocked vault locks itself. */
export const IDLE_LOCK_MS = 5 * 60 * 1000;

export interface UnlockedVault {
  /** Key used for new writes (the vault key record with the lowest id that the passphrase opens). */
  primary: SessionKey;
  /** Every key the passphrase opened, by key id (to read what any of them sealed). */
  keys: ReadonlyMap<string, CryptoKey>;
}

/** A vault key record as stored (id for ordering, fields = the wrapped key). */
export interface StoredVaultKey {
  id: string;
  fields: VaultKey;
}

const ACTIVITY = ["pointerdown", "keydown", "touchstart", "wheel"] as const;

export class VaultSession {
  #open = new Map<string, UnlockedVault>();
  #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #version = 0;
  #idleMs: number;
  #target: EventTarget | undefined;

  constructor(options: { idleMs?: number; target?: EventTarget } = {}) {
    this.#idleMs = options.idleMs ?? IDLE_LOCK_MS;
    this.#target = options.target;
    this.#target?.addEventListener(SIGN_OUT_EVENT, () => this.lockAll());
  }

  /** Opens the workspace's vault with the passphrase: every record it opens contributes its key.
   * WrongPassphraseError (and nothing changes) when it opens none. */
  async unlock(workspaceId: string, records: readonly StoredVaultKey[], passphrase: string): Promise<UnlockedVault> {
    const sorted = [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const keys = new Map<string, CryptoKey>();
    let primary: SessionKey | undefined;
    for (const r of sorted) {
      try {
        const k = await unwrapVaultKey(r.fields, passphrase, workspaceId);
        keys.set(k.keyId, k.key);
        primary ??= k;
      } catch (err) {
        if (!(err instanceof WrongPassphraseError)) throw err;
      }
    }
    if (!primary) throw new WrongPassphraseError();
    const vault = { primary, keys };
    this.#set(workspaceId, vault);
    return vault;
  }

  /** Marks the vault open with a key just created on this device (vault set-up). */
  adopt(workspaceId: string, key: SessionKey): void {
    this.#set(workspaceId, { primary: key, keys: new Map([[key.keyId, key.key]]) });
  }

  get(workspaceId: string | undefined): UnlockedVault | undefined {
    return workspaceId === undefined ? undefined : this.#open.get(workspaceId);
  }

  lock(workspaceId: string): void {
    if (this.#open.delete(workspaceId)) this.#changed();
  }

  lockAll(): void {
    if (this.#open.size === 0) return;
    this.#open.clear();
    this.#changed();
  }

  /** Use of the app: restarts the idle countdown while any vault is open. */
  touch = (): void => {
    if (this.#open.size === 0) return;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.lockAll(), this.#idleMs);
  };

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  version = (): number => this.#version;

  #set(workspaceId: string, vault: UnlockedVault): void {
    this.#open.set(workspaceId, vault);
    this.#changed();
  }

  #changed(): void {
    this.#version++;
    const t = this.#target;
    if (this.#open.size === 0) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
      if (t) for (const e of ACTIVITY) t.removeEventListener(e, this.touch, true);
    } else {
      if (t) for (const e of ACTIVITY) t.addEventListener(e, this.touch, { capture: true, passive: true });
      this.touch();
    }
    for (const l of [...this.#listeners]) l();
  }
}

/** This tab's vault session. */
export const vaultSession = new VaultSession({ target: typeof window === "undefined" ? undefined : window });

/** The unlocked vault of a workspace (undefined while locked), re-rendering on lock and unlock. */
export function useVault(workspaceId: string | undefined, session: VaultSession = vaultSession): UnlockedVault | undefined {
  useSyncExternalStore(session.subscribe, session.version);
  return session.get(workspaceId);
}
