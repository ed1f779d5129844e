// The unlocked vault as the clientdb logins commands' sealer.
import type { LoginSealer } from "@patrimonio/clientdb";
import { sealField } from "./cipher";
import type { UnlockedVault } from "./session";

export function sealerOf(vault: UnlockedVault | undefined): LoginSealer | null {
  if (!vault) return null;
  return { seal: (place, plaintext) => sealField(vault.primary, place, plaintext) };
}
