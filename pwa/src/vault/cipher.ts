// Field encryption of the logins vault: AES-256-GCM (WebCrypto), a fresh random 96-bit nonce per
// write, and associated data that binds the ciphertext to its place — workspace, record and field —
// so a ciphertext copied into another login, another field or another workspace does not open.
//
// Vault ciphertext, version 1 (shared-schema/src/login.ts validates its shape on both sides):
//   v1.<keyId>.<nonce>.<ciphertext+tag>      each part base64url without padding
//   keyId: 8 bytes (11 chars), the id of the vault key that sealed it (vaultKeys.keyId)
//   nonce: 12 bytes (16 chars), random per write
//   ciphertext: UTF-8 plaintext encrypted, followed by the 16-byte GCM tag
//   associated data: "patrimonio.login.v1|<workspaceId>|<recordId>|<field>" (UTF-8)
import { VAULT_CIPHERTEXT_PATTERN } from "@patrimonio/shared-schema";
import { fromBase64url, randomBytes, toBase64url } from "./base64url";

export interface FieldPlace {
  workspaceId: string;
  recordId: string;
  field: string;
}

/** A vault key usable in this session: its id and a non-extractable AES-GCM CryptoKey. */
export interface SessionKey {
  keyId: string;
  key: CryptoKey;
}

/** Why a ciphertext does not open: no key with its id is unlocked, or it was altered / moved. */
export class VaultOpenError extends Error {
  constructor(readonly reason: "malformed" | "no_key" | "failed") {
    super(`vault ciphertext: ${reason}`);
    this.name = "VaultOpenError";
  }
}

const encoder = new TextEncoder();

export function fieldAad({ workspaceId, recordId, field }: FieldPlace): Uint8Array<ArrayBuffer> {
  return encoder.encode(`patrimonio.login.v1|${workspaceId}|${recordId}|${field}`);
}

export function isVaultCiphertext(value: unknown): value is string {
  return typeof value === "string" && VAULT_CIPHERTEXT_PATTERN.test(value);
}

/** The key id a ciphertext names (null when it is not a vault ciphertext). */
export function keyIdOf(value: string): string | null {
  return isVaultCiphertext(value) ? value.split(".")[1]! : null;
}

/** Encrypts one field's plaintext for its place. */
export async function sealField(key: SessionKey, place: FieldPlace, plaintext: string): Promise<string> {
  const nonce = randomBytes(12);
  const sealed = new Uint8Array(
    await globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce, additionalData: fieldAad(place), tagLength: 128 }, key.key, encoder.encode(plaintext)),
  );
  return `v1.${key.keyId}.${toBase64url(nonce)}.${toBase64url(sealed)}`;
}

/** Decrypts one field's ciphertext with the session key it names; throws VaultOpenError. */
export async function openField(keys: ReadonlyMap<string, CryptoKey>, place: FieldPlace, ciphertext: string): Promise<string> {
  if (!isVaultCiphertext(ciphertext)) throw new VaultOpenError("malformed");
  const [, keyId, nonce, body] = ciphertext.split(".") as [string, string, string, string];
  const key = keys.get(keyId);
  if (!key) throw new VaultOpenError("no_key");
  try {
    const plain = await globalThis.crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64url(nonce), additionalData: fieldAad(place), tagLength: 128 },
      key,
      fromBase64url(body),
    );
    return new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    throw new VaultOpenError("failed");
  }
}

/** The same plaintext sealed again with `key` (a key rotation, or a login written with an older key
 * saved again): null when the ciphertext is sealed with `key` already, or no key of `keys` opens it
 * (it stays as it is, readable to whoever holds its key). */
export async function resealField(keys: ReadonlyMap<string, CryptoKey>, key: SessionKey, place: FieldPlace, ciphertext: string): Promise<string | null> {
  if (keyIdOf(ciphertext) === key.keyId) return null;
  let plaintext: string;
  try {
    plaintext = await openField(keys, place, ciphertext);
  } catch (err) {
    if (err instanceof VaultOpenError) return null;
    throw err;
  }
  return sealField(key, place, plaintext);
}
