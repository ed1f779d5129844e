// The logins vault's reads: the workspace's logins and wrapped vault keys (live, from the device
// database) and the plaintext of an encrypted field once the vault is unlocked (in memory only).
import { useWorkspaceConflicts, useWorkspaceRecords, type ConflictView, type SyncedRecord } from "@patrimonio/clientdb";
import { useEffect, useMemo, useState } from "react";
import { openField, type UnlockedVault } from "../../vault";

export type LoginRec = SyncedRecord<"logins">;
export type VaultKeyRec = SyncedRecord<"vaultKeys">;

export function useLogins(workspaceId: string | undefined): LoginRec[] | undefined {
  return useWorkspaceRecords("logins", workspaceId);
}

export function useVaultKeys(workspaceId: string | undefined): VaultKeyRec[] | undefined {
  return useWorkspaceRecords("vaultKeys", workspaceId);
}

/** The conflicts of the workspace's vault key records: the wrappings of passphrase changes that
 * lost to concurrent ones (pwa/src/vault/wrappings.ts). */
export function useVaultKeyConflicts(workspaceId: string | undefined): ConflictView[] | undefined {
  const all = useWorkspaceConflicts(workspaceId);
  return useMemo(() => all?.filter((c) => c.collection === "vaultKeys"), [all]);
}

export type Opened = { state: "locked" } | { state: "opening" } | { state: "open"; text: string } | { state: "failed" };

/** Decrypts one ciphertext of a login's field (undefined: the field is empty). */
export async function openLoginField(vault: UnlockedVault, workspaceId: string, recordId: string, field: string, ciphertext: string): Promise<string> {
  return openField(vault.keys, { workspaceId, recordId, field }, ciphertext);
}

/** The plaintext of `ciphertext` while `vault` is unlocked and `enabled`; nothing is kept after lock. */
export function useOpened(
  vault: UnlockedVault | undefined,
  workspaceId: string,
  recordId: string,
  field: string,
  ciphertext: string | undefined,
  enabled = true,
): Opened | undefined {
  const [opened, setOpened] = useState<{ for: string; value: Opened } | undefined>(undefined);
  const key = `${recordId}|${field}|${ciphertext ?? ""}`;
  // Locked, hidden or emptied: drop the plaintext from memory at once.
  if (opened !== undefined && (!vault || !enabled || ciphertext === undefined)) setOpened(undefined);
  useEffect(() => {
    if (!vault || !enabled || ciphertext === undefined) return;
    let live = true;
    openLoginField(vault, workspaceId, recordId, field, ciphertext).then(
      (text) => live && setOpened({ for: key, value: { state: "open", text } }),
      () => live && setOpened({ for: key, value: { state: "failed" } }),
    );
    return () => {
      live = false;
    };
  }, [vault, enabled, workspaceId, recordId, field, ciphertext, key]);
  if (ciphertext === undefined) return undefined;
  if (!vault) return { state: "locked" };
  if (!enabled) return undefined;
  return opened?.for === key ? opened.value : { state: "opening" };
}
