// Login: credentials and access notes for heirs — the most sensitive data in the app.
//
// The logins vault is end-to-end encrypted (pwa/src/vault): `secret` and `notes` are encrypted on
// the device before they reach IndexedDB, the outbox, the server or its change log. So there are
// two schemas:
// - `loginPlaintextSchema` ("loginPlaintext"): what the person types, validated on the device
//   before encrypting (secret 1–1000 characters, notes at most 4000). Never synced.
// - `loginSchema` ("login", the synced `logins` collection): the same record with `secret` and
//   `notes` as vault ciphertext (`vaultCiphertext`, see below). The server only ever sees this one:
//   a plaintext secret pushed to it fails the format and is refused.
//
// Vault ciphertext (version 1), all parts base64url without padding:
//   v1.<keyId: 11 chars = 8 bytes>.<nonce: 16 chars = 12 bytes>.<AES-256-GCM ciphertext + 16-byte tag>
// The associated data binds workspace id, record id and field name (pwa/src/vault/cipher.ts).
import * as z from "zod";
import { doc, lengthCheck, SECRET, text, url, uuidv7 } from "./primitives";

/** Plaintext limits (code points). */
export const LOGIN_SECRET_MAX = 1000;
export const LOGIN_NOTES_MAX = 4000;

/** Version 1 vault ciphertext: `v1.<keyId>.<nonce>.<ciphertext+tag>` (base64url, no padding). */
export const VAULT_CIPHERTEXT_PATTERN = /^v1\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,}$/;

/** Longest ciphertext of `maxChars` code points: 4 UTF-8 bytes each + 16-byte tag, base64url, plus
 * the 32 characters of `v1.`, key id, nonce and dots. */
export function vaultCiphertextMax(maxChars: number): number {
  return 32 + Math.ceil(((maxChars * 4 + 16) * 4) / 3);
}

/** A vault ciphertext string (never plaintext) of a field whose plaintext has at most `maxChars`. */
export const vaultCiphertext = (maxChars: number) =>
  lengthCheck(z.stringFormat("vaultCiphertext", VAULT_CIPHERTEXT_PATTERN), 0, vaultCiphertextMax(maxChars));

const common = {
  institution: doc(text({ min: 1, max: 140 }), "Bank, broker, exchange or service."),
  url: doc(url(), "Sign-in address (http or https, at most 2000 characters).").optional(),
  username: doc(text({ min: 1, max: 256 }), "User name or account number.").optional(),
};
const linked = {
  assetId: doc(uuidv7(), "Asset this login gives access to (id of an assets record).").optional(),
};

/** The synced login: `secret` and `notes` are vault ciphertext (marked x-secret: never logged). */
export const loginShape = {
  ...common,
  secret: doc(vaultCiphertext(LOGIN_SECRET_MAX).meta({ [SECRET]: true }), "Password, PIN or recovery phrase, encrypted on the device (vault ciphertext v1). Never logged.").optional(),
  notes: doc(vaultCiphertext(LOGIN_NOTES_MAX).meta({ [SECRET]: true }), "Access notes for heirs, encrypted on the device (vault ciphertext v1).").optional(),
  ...linked,
};

export const loginSchema = doc(z.strictObject(loginShape), "Login (synced; secret and notes encrypted)");
export type Login = z.infer<typeof loginSchema>;

/** The login as typed on the device, before encryption (never stored or synced as such). */
export const loginPlaintextShape = {
  ...common,
  secret: doc(text({ min: 1, max: LOGIN_SECRET_MAX }).meta({ [SECRET]: true }), "Password, PIN or recovery phrase (plaintext, on the device only).").optional(),
  notes: doc(text({ max: LOGIN_NOTES_MAX }).meta({ [SECRET]: true }), "Access notes for heirs (plaintext, on the device only).").optional(),
  ...linked,
};

export const loginPlaintextSchema = doc(z.strictObject(loginPlaintextShape), "Login as typed on the device, before encryption");
export type LoginPlaintext = z.infer<typeof loginPlaintextSchema>;
