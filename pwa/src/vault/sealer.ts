// The unlocked vault as the clientdb logins commands' sealer: new writes use the current key
// (the highest generation this session holds, then the lowest record id: currentKey), and a field
// sealed with another key is sealed again with it when its login is saved.
import type { LoginSealer } from "@patrimonio/clientdb";
import type { VaultKey } from "@patrimonio/shared-schema";
import { resealField, sealField } from "./cipher";
import { currentKey, type UnlockedVault } from "./session";

export function sealerOf(vault: UnlockedVault | undefined, records: readonly { id: string; fields: VaultKey }[] = []): LoginSealer | null {
  if (!vault) return null;
  const key = currentKey(vault, records);
  return {
    keyId: key.keyId,
    seal: (place, plaintext) => sealField(key, place, plaintext),
    reseal: (place, ciphertext) => resealField(vault.keys, key, place, ciphertext),
  };
}
