// Key rotation: a new random vault key under a new passphrase, every login sealed again with it,
// and every older key wrapped again under the new passphrase (what they sealed — other devices'
// offline writes, conflicts, the change log — stays readable to whoever knows the new passphrase).
// The new key is one generation above every key the workspace has, so new writes use it on every
// device (currentKey). Stored in one transaction or not at all (clientdb rotateVaultKey). Owners and
// editors only: a viewer never writes.
import { rotateVaultKey, type ClientDb } from "@patrimonio/clientdb";
import type { VaultKdf } from "@patrimonio/shared-schema";
import { resealField } from "./cipher";
import { DEFAULT_KDF, prepareRotation } from "./keys";
import type { StoredVaultKey, VaultSession } from "./session";

/** Why a rotation did not happen (a wrong current passphrase is WrongPassphraseError). */
export class VaultRotationError extends Error {
  constructor(readonly reason: "forbidden" | "locked" | "refused") {
    super(`vault rotation: ${reason}`);
    this.name = "VaultRotationError";
  }
}

export interface RotateOptions {
  db: ClientDb;
  session: VaultSession;
  workspaceId: string;
  /** Every wrapping of the workspace's key records (wrappingsOf: losing ones included). */
  wrappings: readonly StoredVaultKey[];
  /** The passphrase the vault opens with now, and the new one. */
  current: string;
  next: string;
  /** Whether the member may write (owners and editors). */
  canEdit: boolean;
  params?: Omit<VaultKdf, "salt">;
}

/** Rotates the unlocked vault's key. Throws WrongPassphraseError (nothing written) when `current`
 * opens no key record, VaultRotationError otherwise; on success the session writes with the new key. */
export async function rotateVault(o: RotateOptions): Promise<{ recordId: string; resealed: number; left: number }> {
  if (!o.canEdit) throw new VaultRotationError("forbidden");
  const vault = o.session.get(o.workspaceId);
  if (!vault) throw new VaultRotationError("locked");
  const rotation = await prepareRotation(o.wrappings, o.current, o.next, o.workspaceId, o.params ?? DEFAULT_KDF);
  // Locked (idle, Lock, sign-out, the session changing hands) while the keys were being derived or
  // the logins sealed again: nothing is written, as an unlock a lock came during does not open the vault.
  const stillOpen = () => {
    if (o.session.get(o.workspaceId) !== vault) throw new VaultRotationError("locked");
  };
  stillOpen();
  // The session's keys too: a second key a viewer-style open or a join added is read and re-sealed.
  const keys = new Map([...vault.keys, ...rotation.keys]);
  const stored = await rotateVaultKey(o.db, o.workspaceId, { key: rotation.record, rewrapped: rotation.rewrapped }, (place, ciphertext) => {
    stillOpen();
    return resealField(keys, rotation.key, place, ciphertext);
  });
  if (!stored.ok) throw new VaultRotationError("refused");
  o.session.rotated(o.workspaceId, rotation, stored.id);
  return { recordId: stored.id, resealed: stored.resealed, left: stored.left };
}
