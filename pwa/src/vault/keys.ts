// The vault key of a workspace: 32 random bytes (AES-256-GCM), wrapped with a key derived from the
// vault passphrase by Argon2id (hash-wasm). The wrapped key syncs (collection vaultKeys); the
// passphrase and the unwrapped key stay in this tab's memory (session.ts) and are never stored.
//
// Argon2id parameters (stored with every wrapped key, so they can be raised later without breaking
// old keys): 64 MiB memory, 3 passes, 1 lane, 16-byte random salt, 32-byte output, version 0x13.
// That is OWASP's "m=64 MiB" class; it takes about 0.8 s on one core of this project's 2-core
// reference machine (Node and Chromium alike), once per unlock or passphrase change.
//
// wrappedKey, version 1: v1.<nonce: 12 bytes>.<AES-256-GCM of the 32 key bytes + 16-byte tag>
// (base64url, no padding); associated data "patrimonio.vaultKey.v1|<workspaceId>|<keyId>".
// The passphrase is normalised to Unicode NFC before derivation, so the same passphrase typed on
// another device or keyboard gives the same key.
import { vaultKeyGeneration, type VaultKdf, type VaultKey } from "@patrimonio/shared-schema";
import { argon2id } from "hash-wasm";
import { fromBase64url, randomBytes, toBase64url } from "./base64url";
import type { SessionKey } from "./cipher";

export const DEFAULT_KDF: Omit<VaultKdf, "salt"> = { algorithm: "argon2id", memoryKiB: 65536, iterations: 3, parallelism: 1 };

/** The passphrase does not open this wrapped key (or the record was altered). */
export class WrongPassphraseError extends Error {
  constructor() {
    super("The passphrase does not open the vault.");
    this.name = "WrongPassphraseError";
  }
}

const encoder = new TextEncoder();

function wrapAad(workspaceId: string, keyId: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(`patrimonio.vaultKey.v1|${workspaceId}|${keyId}`);
}

/** The key-encryption key: Argon2id(passphrase NFC, salt) imported as a non-extractable AES-GCM key. */
async function deriveKek(passphrase: string, kdf: VaultKdf): Promise<CryptoKey> {
  const raw = await argon2id({
    password: passphrase.normalize("NFC"),
    salt: fromBase64url(kdf.salt),
    parallelism: kdf.parallelism,
    iterations: kdf.iterations,
    memorySize: kdf.memoryKiB,
    hashLength: 32,
    outputType: "binary",
  });
  try {
    return await globalThis.crypto.subtle.importKey("raw", new Uint8Array(raw), "AES-GCM", false, ["encrypt", "decrypt"]);
  } finally {
    raw.fill(0);
  }
}

async function importVaultKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function wrapWith(raw: Uint8Array<ArrayBuffer>, kek: CryptoKey, workspaceId: string, keyId: string): Promise<string> {
  const nonce = randomBytes(12);
  const sealed = new Uint8Array(await globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce, additionalData: wrapAad(workspaceId, keyId) }, kek, raw));
  return `v1.${toBase64url(nonce)}.${toBase64url(sealed)}`;
}

/** The raw key bytes of a wrapped key (callers zero them after use); WrongPassphraseError. */
async function unwrapRaw(record: VaultKey, passphrase: string, workspaceId: string): Promise<Uint8Array<ArrayBuffer>> {
  return unwrapRawWith(record, await deriveKek(passphrase, record.kdf), workspaceId);
}

async function unwrapRawWith(record: VaultKey, kek: CryptoKey, workspaceId: string): Promise<Uint8Array<ArrayBuffer>> {
  const [version, nonce, body] = record.wrappedKey.split(".");
  if (version !== "v1" || nonce === undefined || body === undefined) throw new WrongPassphraseError();
  try {
    return new Uint8Array(
      await globalThis.crypto.subtle.decrypt({ name: "AES-GCM", iv: fromBase64url(nonce), additionalData: wrapAad(workspaceId, record.keyId) }, kek, fromBase64url(body)),
    );
  } catch {
    throw new WrongPassphraseError();
  }
}

/** A record's generation, to copy into its re-wrapping (absent stays absent: generation 1). */
function generationOf(record: VaultKey): Pick<VaultKey, "generation"> {
  return record.generation === undefined ? {} : { generation: record.generation };
}

function freshKdf(params: Omit<VaultKdf, "salt">): VaultKdf {
  return { ...params, salt: toBase64url(randomBytes(16)) };
}

/** A new vault: a random key, wrapped with `passphrase`. Returns the record to sync and the session key. */
export async function createVaultKey(
  passphrase: string,
  workspaceId: string,
  params: Omit<VaultKdf, "salt"> = DEFAULT_KDF,
): Promise<{ record: VaultKey; key: SessionKey; kek: Kek }> {
  const raw = randomBytes(32);
  const keyId = toBase64url(randomBytes(8));
  const kdf = freshKdf(params);
  try {
    const kek = await deriveKek(passphrase, kdf);
    const wrappedKey = await wrapWith(raw, kek, workspaceId, keyId);
    return { record: { keyId, kdf, wrappedKey }, key: { keyId, key: await importVaultKey(raw) }, kek: { kdf, key: kek } };
  } finally {
    raw.fill(0);
  }
}

/** Opens a wrapped key with the passphrase (a non-extractable session key); WrongPassphraseError. */
export async function unwrapVaultKey(record: VaultKey, passphrase: string, workspaceId: string): Promise<SessionKey> {
  const raw = await unwrapRaw(record, passphrase, workspaceId);
  try {
    return { keyId: record.keyId, key: await importVaultKey(raw) };
  } finally {
    raw.fill(0);
  }
}

/** The same key wrapped with a new passphrase (new salt, current parameters): only the wrapped key
 * changes, no login is re-encrypted. WrongPassphraseError when `current` does not open it. */
export async function rewrapVaultKey(
  record: VaultKey,
  current: string,
  next: string,
  workspaceId: string,
  params: Omit<VaultKdf, "salt"> = DEFAULT_KDF,
): Promise<VaultKey> {
  return (await rewrapVaultKeyKeepingKek(record, current, next, workspaceId, params)).record;
}

/** rewrapVaultKey, with the new passphrase's key-encryption key (for the open session). */
export async function rewrapVaultKeyKeepingKek(
  record: VaultKey,
  current: string,
  next: string,
  workspaceId: string,
  params: Omit<VaultKdf, "salt"> = DEFAULT_KDF,
): Promise<{ record: VaultKey; kek: Kek }> {
  const raw = await unwrapRaw(record, current, workspaceId);
  try {
    const kdf = freshKdf(params);
    const kek = await deriveKek(next, kdf);
    return { record: { keyId: record.keyId, kdf, wrappedKey: await wrapWith(raw, kek, workspaceId, record.keyId), ...generationOf(record) }, kek: { kdf, key: kek } };
  } finally {
    raw.fill(0);
  }
}

/** The key-encryption key a passphrase gave for one wrapped key (non-extractable, memory only),
 * with the parameters and salt it was derived with: another key wrapped with it opens with the
 * same passphrase, without a second derivation (joinVaultKey). */
export interface Kek {
  kdf: VaultKdf;
  key: CryptoKey;
}

/** Opens a wrapped key with the passphrase and keeps the key-encryption key; WrongPassphraseError. */
export async function openVaultKey(
  record: VaultKey,
  passphrase: string,
  workspaceId: string,
  /** Key-encryption keys already derived from this passphrase, by kdf (records a rotation or a
   * join wrapped share one salt: one derivation opens them all). Filled as it goes. */
  derived?: Map<string, CryptoKey>,
): Promise<{ key: SessionKey; kek: Kek }> {
  const kdfKey = JSON.stringify(record.kdf);
  let kek = derived?.get(kdfKey);
  if (!kek) {
    kek = await deriveKek(passphrase, record.kdf);
    derived?.set(kdfKey, kek);
  }
  const raw = await unwrapRawWith(record, kek, workspaceId);
  try {
    return { key: { keyId: record.keyId, key: await importVaultKey(raw) }, kek: { kdf: record.kdf, key: kek } };
  } finally {
    raw.fill(0);
  }
}

/** Another vault key of the workspace (made by a concurrent set-up under another passphrase),
 * opened with its own passphrase and wrapped again under `kek`: from then on the passphrase `kek`
 * came from opens it, and its own passphrase no longer does. Only the wrapping changes; the key
 * and every login it sealed stay as they are. WrongPassphraseError when `passphrase` does not open it. */
export async function joinVaultKey(other: VaultKey, passphrase: string, kek: Kek, workspaceId: string): Promise<{ record: VaultKey; key: SessionKey }> {
  const raw = await unwrapRaw(other, passphrase, workspaceId);
  try {
    const wrappedKey = await wrapWith(raw, kek.key, workspaceId, other.keyId);
    return { record: { keyId: other.keyId, kdf: kek.kdf, wrappedKey, ...generationOf(other) }, key: { keyId: other.keyId, key: await importVaultKey(raw) } };
  } finally {
    raw.fill(0);
  }
}

/** A key rotation, ready to store in one transaction (clientdb rotateVaultKey; rotate.ts). */
export interface Rotation {
  /** The new key record: a random key one generation above every key record of the workspace,
   * wrapped under the new passphrase. */
  record: VaultKey;
  /** The new key, for this session (non-extractable). */
  key: SessionKey;
  /** Every key record the current passphrase opened (through its own wrapping or a losing one),
   * by record id, wrapped again under the new passphrase: what they sealed stays readable. */
  rewrapped: Map<string, VaultKey>;
  /** Every key the current passphrase opened, and the new one, by key id (to re-seal the logins). */
  keys: Map<string, CryptoKey>;
  /** The new passphrase's key-encryption key (one salt for every record the rotation writes). */
  kek: Kek;
}

/**
 * Rotates a workspace's vault key: a new random key, wrapped under `next`, one generation above
 * every record in `wrappings` (so new writes use it on every device); every key record `current`
 * opens is wrapped again under `next` (the same salt, so an unlock derives once). The logins are
 * re-sealed by the caller. WrongPassphraseError when `current` opens no record; nothing is written
 * here either way.
 */
export async function prepareRotation(
  wrappings: readonly { id: string; fields: VaultKey }[],
  current: string,
  next: string,
  workspaceId: string,
  params: Omit<VaultKdf, "salt"> = DEFAULT_KDF,
): Promise<Rotation> {
  const opened = new Map<string, { record: VaultKey; raw: Uint8Array<ArrayBuffer> }>();
  // Records wrapped under one key-encryption key (a rotation, a join) share their kdf: derive once.
  const keks = new Map<string, CryptoKey>();
  const raws: Uint8Array<ArrayBuffer>[] = [];
  try {
    for (const w of wrappings) {
      if (opened.has(w.id)) continue;
      const kdfKey = JSON.stringify(w.fields.kdf);
      let kek = keks.get(kdfKey);
      if (!kek) {
        kek = await deriveKek(current, w.fields.kdf);
        keks.set(kdfKey, kek);
      }
      try {
        const raw = await unwrapRawWith(w.fields, kek, workspaceId);
        raws.push(raw);
        opened.set(w.id, { record: w.fields, raw });
      } catch (err) {
        if (!(err instanceof WrongPassphraseError)) throw err;
      }
    }
    if (opened.size === 0) throw new WrongPassphraseError();
    const generation = Math.max(...wrappings.map((w) => vaultKeyGeneration(w.fields))) + 1;
    const raw = randomBytes(32);
    raws.push(raw);
    const keyId = toBase64url(randomBytes(8));
    const kdf = freshKdf(params);
    const kek = await deriveKek(next, kdf);
    const record: VaultKey = { keyId, kdf, wrappedKey: await wrapWith(raw, kek, workspaceId, keyId), generation };
    const key: SessionKey = { keyId, key: await importVaultKey(raw) };
    const rewrapped = new Map<string, VaultKey>();
    const keys = new Map<string, CryptoKey>();
    for (const [id, o] of opened) {
      rewrapped.set(id, { keyId: o.record.keyId, kdf, wrappedKey: await wrapWith(o.raw, kek, workspaceId, o.record.keyId), ...generationOf(o.record) });
      keys.set(o.record.keyId, await importVaultKey(o.raw));
    }
    keys.set(keyId, key.key);
    return { record, key, rewrapped, keys, kek: { kdf, key: kek } };
  } finally {
    for (const r of raws) r.fill(0);
  }
}
