// Passphrase guidance for the vault: at least 12 characters (VAULT_PASSPHRASE_MIN) to be accepted;
// "strong" from 16 characters or 4 words of 3+ letters. A memorable sentence beats a short password
// full of symbols; heirs must be able to type it from the emergency sheet's instructions.
export const VAULT_PASSPHRASE_MIN = 12;
export const VAULT_PASSPHRASE_MAX = 1024;

export type PassphraseStrength = "tooShort" | "fair" | "strong";

export function passphraseStrength(passphrase: string): PassphraseStrength {
  const length = [...passphrase].length;
  if (length < VAULT_PASSPHRASE_MIN) return "tooShort";
  const words = passphrase.split(/[\s\-_.,;]+/u).filter((w) => [...w].length >= 3);
  const varied = new Set(passphrase.toLowerCase()).size >= 8;
  if (varied && (length >= 16 || words.length >= 4)) return "strong";
  return "fair";
}
