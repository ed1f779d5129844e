// The unlocked vaults of this tab, in memory only (never localStorage, IndexedDB or a worker): a
// reload, closing the tab, signing out, the session ending or changing hands in this tab, or 5
// minutes without any use (IDLE_LOCK_MS: no key press, click or touch in the app) locks every vault
// again. Each workspace has its own vault. The idle time is measured by the clock, not only by a
// timer: timers stand still while the computer sleeps, so the first use after waking up (or the tab
// coming back into view) locks a vault whose 5 minutes have passed, before that use reaches the app.
import { vaultKeyGeneration, type VaultKey } from "@patrimonio/shared-schema";
import { useSyncExternalStore } from "react";
import { SESSION_CHANGED_EVENT, SIGN_OUT_EVENT } from "../auth/signOut";
import type { SessionKey } from "./cipher";
import { openVaultKey, WrongPassphraseError, type Kek, type Rotation } from "./keys";

/** Idle time after which an unlocked vault locks itself. */
export const IDLE_LOCK_MS = 5 * 60 * 1000;

export interface UnlockedVault {
  /** Key used for new writes when the unlock (or rotation) happened: of the key records the
   * passphrase opens, the one of the highest generation, then the lowest id. The records change
   * while the vault is open (another device's rotation arrives): writes ask `currentKey`. */
  primary: SessionKey;
  /** Every key the passphrase opened, by key id (to read what any of them sealed). */
  keys: ReadonlyMap<string, CryptoKey>;
  /** The wrapping this session opened (or wrote) of each key record, by record id: compared with
   * the records as they are now, it tells a passphrase change that lost to a concurrent one, or
   * one made elsewhere since (vaultNotices). */
  opened: ReadonlyMap<string, string>;
  /** The key-encryption key of the primary's wrapping: wraps another key under the same
   * passphrase (joining a second key, joinVaultKey). Absent when unknown. */
  kek?: Kek;
}

/** A vault key record as stored (id for ordering, fields = the wrapped key), or one of its losing
 * wrappings (`lost`: the stamp of a passphrase change that lost to a concurrent one, kept by the
 * merge as conflicts; wrappingsOf). */
export interface StoredVaultKey {
  id: string;
  fields: VaultKey;
  lost?: string;
}

/** An unlock that was still deriving its key when the vault was locked, or the session ended or
 * changed hands: it does not open the vault afterwards. */
export class UnlockCancelledError extends Error {
  constructor() {
    super("The vault was locked while it was being unlocked.");
    this.name = "UnlockCancelledError";
  }
}

const ACTIVITY = ["pointerdown", "keydown", "touchstart", "wheel"] as const;
/** The tab coming back (into view, or the window into focus): the idle time is checked. */
const RETURN = ["visibilitychange", "focus"] as const;

export class VaultSession {
  #open = new Map<string, UnlockedVault>();
  #listeners = new Set<() => void>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #version = 0;
  #idleMs: number;
  #target: EventTarget | undefined;
  #now: () => number;
  /** When the app was last used while a vault was open (by #now). */
  #lastUse = 0;
  /** Counts locks (even of a vault not open yet): an unlock that saw a lock meanwhile is cancelled. */
  #locks = 0;

  constructor(options: { idleMs?: number; target?: EventTarget; now?: () => number } = {}) {
    this.#idleMs = options.idleMs ?? IDLE_LOCK_MS;
    this.#target = options.target;
    this.#now = options.now ?? Date.now;
    this.#target?.addEventListener(SIGN_OUT_EVENT, () => this.lockAll());
    this.#target?.addEventListener(SESSION_CHANGED_EVENT, () => this.lockAll());
  }

  /** Opens the workspace's vault with the passphrase: every record it opens contributes its key,
   * through the record's current wrapping or, failing that, one of its losing wrappings (a
   * passphrase change that lost to a concurrent one still opens the vault: the key is the same).
   * WrongPassphraseError (and nothing changes) when it opens none; UnlockCancelledError when a
   * lock, a sign-out or a change of session came while the key was being derived. */
  async unlock(workspaceId: string, records: readonly StoredVaultKey[], passphrase: string): Promise<UnlockedVault> {
    const locks = this.#locks;
    // By record id, its own wrapping first (the primary: the highest generation, then the lowest id).
    const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const sorted = [...records].sort((a, b) => cmp(a.id, b.id) || cmp(a.lost === undefined ? "" : `~${a.lost}`, b.lost === undefined ? "" : `~${b.lost}`));
    const keys = new Map<string, CryptoKey>();
    const opened = new Map<string, string>();
    let primary: { key: SessionKey; kek: Kek; generation: number } | undefined;
    const derived = new Map<string, CryptoKey>();
    for (const r of sorted) {
      if (opened.has(r.id)) continue;
      try {
        const k = await openVaultKey(r.fields, passphrase, workspaceId, derived);
        keys.set(k.key.keyId, k.key.key);
        opened.set(r.id, r.fields.wrappedKey);
        const generation = vaultKeyGeneration(r.fields);
        if (!primary || generation > primary.generation) primary = { key: k.key, kek: k.kek, generation };
      } catch (err) {
        if (!(err instanceof WrongPassphraseError)) throw err;
      }
    }
    if (this.#locks !== locks) throw new UnlockCancelledError();
    if (!primary) throw new WrongPassphraseError();
    const vault: UnlockedVault = { primary: primary.key, keys, opened, kek: primary.kek };
    this.#set(workspaceId, vault);
    return vault;
  }

  /** Marks the vault open with a key just created on this device (vault set-up); `record` is the
   * key record it was saved as. */
  adopt(workspaceId: string, key: SessionKey, record?: { id: string; wrappedKey: string; kek?: Kek }): void {
    this.#set(workspaceId, {
      primary: key,
      keys: new Map([[key.keyId, key.key]]),
      opened: new Map(record ? [[record.id, record.wrappedKey]] : []),
      ...(record?.kek ? { kek: record.kek } : {}),
    });
  }

  /** An open vault's key records were wrapped again on this device (a passphrase change, a key
   * joined) or opened with another passphrase (a viewer's second key): the session now holds these
   * wrappings (and `key`, when one more key opens; `kek`, a new passphrase's). Nothing happens to a
   * locked vault. */
  rewrapped(workspaceId: string, wrappings: ReadonlyMap<string, string>, extra?: { key?: SessionKey; kek?: Kek }): void {
    const vault = this.#open.get(workspaceId);
    if (!vault) return;
    const keys = new Map(vault.keys);
    if (extra?.key) keys.set(extra.key.keyId, extra.key.key);
    const kek = extra?.kek ?? vault.kek;
    this.#set(workspaceId, { primary: vault.primary, keys, opened: new Map([...vault.opened, ...wrappings]), ...(kek ? { kek } : {}) });
  }

  /** A key rotation was stored on this device (`recordId`: the new key's record): the session
   * writes with the new key from now on, holds every key the rotation opened, and the new
   * passphrase's wrappings. Nothing happens to a locked vault. */
  rotated(workspaceId: string, rotation: Rotation, recordId: string): void {
    const vault = this.#open.get(workspaceId);
    if (!vault) return;
    const keys = new Map([...vault.keys, ...rotation.keys]);
    const opened = new Map([...vault.opened, ...[...rotation.rewrapped].map(([id, r]) => [id, r.wrappedKey] as const), [recordId, rotation.record.wrappedKey]]);
    this.#set(workspaceId, { primary: rotation.key, keys, opened, kek: rotation.kek });
  }

  get(workspaceId: string | undefined): UnlockedVault | undefined {
    if (workspaceId === undefined || this.#open.size === 0) return undefined;
    if (this.#idle()) {
      // Its time ran out while the timer stood still: locked (the listeners hear it just after).
      queueMicrotask(() => this.#lockIfIdle());
      return undefined;
    }
    return this.#open.get(workspaceId);
  }

  lock(workspaceId: string): void {
    this.#locks++;
    if (this.#open.delete(workspaceId)) this.#changed();
  }

  lockAll(): void {
    this.#locks++;
    if (this.#open.size === 0) return;
    this.#open.clear();
    this.#changed();
  }

  /** Use of the app: restarts the idle countdown while any vault is open, unless its time has run
   * out already (the computer slept): then it locks them. */
  touch = (): void => {
    if (this.#open.size === 0 || this.#lockIfIdle()) return;
    this.#lastUse = this.#now();
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.lockAll(), this.#idleMs);
  };

  /** The tab came back: lock what has been idle too long, without counting this as a use. */
  #returned = (): void => {
    this.#lockIfIdle();
  };

  #idle(): boolean {
    return this.#open.size > 0 && this.#now() - this.#lastUse >= this.#idleMs;
  }

  #lockIfIdle(): boolean {
    if (!this.#idle()) return false;
    this.lockAll();
    return true;
  }

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
      if (t) for (const e of RETURN) t.removeEventListener(e, this.#returned, true);
    } else {
      if (t) for (const e of ACTIVITY) t.addEventListener(e, this.touch, { capture: true, passive: true });
      if (t) for (const e of RETURN) t.addEventListener(e, this.#returned, { capture: true, passive: true });
      // Opening a vault is a use of the app.
      this.#lastUse = this.#now();
      this.touch();
    }
    for (const l of [...this.#listeners]) l();
  }
}

/** The key new writes use now: of the key records as they are now whose key this session holds,
 * the one of the highest generation, then the lowest record id — the same on every device that
 * holds the same keys, so two rotations made at once converge on one key once both are held. The
 * records being unknown yet, the key the unlock chose. */
export function currentKey(vault: UnlockedVault, records: readonly { id: string; fields: VaultKey }[]): SessionKey {
  let best: { id: string; generation: number; keyId: string } | undefined;
  for (const r of records) {
    if (!vault.keys.has(r.fields.keyId)) continue;
    const generation = vaultKeyGeneration(r.fields);
    if (!best || generation > best.generation || (generation === best.generation && r.id < best.id)) best = { id: r.id, generation, keyId: r.fields.keyId };
  }
  return best ? { keyId: best.keyId, key: vault.keys.get(best.keyId)! } : vault.primary;
}

/** This tab's vault session. */
export const vaultSession = new VaultSession({ target: typeof window === "undefined" ? undefined : window });

/** The unlocked vault of a workspace (undefined while locked), re-rendering on lock and unlock. */
export function useVault(workspaceId: string | undefined, session: VaultSession = vaultSession): UnlockedVault | undefined {
  useSyncExternalStore(session.subscribe, session.version);
  return session.get(workspaceId);
}
