// Vault key: the workspace's random 256-bit logins key, wrapped (AES-256-GCM) with a key derived
// from the vault passphrase by Argon2id. Synced (collection `vaultKeys`) so the person's other
// devices and the members who know the passphrase can open the vault; the passphrase and the
// unwrapped key never leave the device. Normally one record per workspace; two devices that set a
// vault up concurrently make two, and unlocking opens every one the passphrase opens (the key id in
// each ciphertext says which key encrypted it). Every write sets all its fields together, so
// the per-field merge keeps them consistent (one mutation, one stamp). A record is never deleted
// (the server refuses it: sync.reject.vaultKeyKept); pwa/src/vault/README.md tells the rest.
//
// generation (schema version 7): a key rotation makes a new key one generation above every key
// the workspace has, and new writes use the key of the highest generation the passphrase opens
// (ties, two rotations at once: the lowest record id), on every device alike. Absent = 1 (keys set
// up before rotations existed). Set when the record is created and copied by every re-wrap.
//
// wrappedKey (version 1): v1.<nonce: 16 chars = 12 bytes>.<ciphertext of the 32-byte key + tag: 64 chars>,
// base64url without padding; associated data "patrimonio.vaultKey.v1|<workspaceId>|<keyId>".
import * as z from "zod";
import { doc, int } from "./primitives";

export const VAULT_KEY_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;
export const VAULT_SALT_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const VAULT_WRAPPED_KEY_PATTERN = /^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{64}$/;

export const vaultKdfSchema = doc(
  z.strictObject({
    algorithm: doc(z.literal("argon2id"), "Key derivation function (Argon2id, version 0x13)."),
    memoryKiB: doc(int(8192, 1048576), "Argon2id memory cost in KiB (65536 = 64 MiB)."),
    iterations: doc(int(1, 20), "Argon2id time cost (passes)."),
    parallelism: doc(int(1, 8), "Argon2id parallelism (lanes)."),
    salt: doc(z.stringFormat("vaultSalt", VAULT_SALT_PATTERN), "Random 16-byte salt, base64url."),
  }),
  "How the wrapping key is derived from the passphrase.",
);

export const vaultKeyShape = {
  keyId: doc(z.stringFormat("vaultKeyId", VAULT_KEY_ID_PATTERN), "Random 8-byte key id (base64url), repeated in every ciphertext the key makes."),
  kdf: vaultKdfSchema,
  wrappedKey: doc(z.stringFormat("vaultWrappedKey", VAULT_WRAPPED_KEY_PATTERN), "The vault key encrypted with the passphrase-derived key (v1.<nonce>.<ciphertext>)."),
  generation: doc(int(1, 1_000_000), "Rotation generation (absent = 1): new writes use the key of the highest generation the passphrase opens, ties to the lowest record id.").optional(),
};

/** A key record's generation (absent: 1, a key from before rotations). */
export function vaultKeyGeneration(key: { generation?: number | undefined }): number {
  return key.generation ?? 1;
}

export const vaultKeySchema = doc(z.strictObject(vaultKeyShape), "Vault key (wrapped)");
export type VaultKey = z.infer<typeof vaultKeySchema>;
export type VaultKdf = z.infer<typeof vaultKdfSchema>;
