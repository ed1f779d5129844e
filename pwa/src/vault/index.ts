// The logins vault, end to end encrypted (see README.md beside this file).
export { fromBase64url, toBase64url } from "./base64url";
export { fieldAad, isVaultCiphertext, keyIdOf, openField, resealField, sealField, VaultOpenError, type FieldPlace, type SessionKey } from "./cipher";
export { DEFAULT_KDF, WrongPassphraseError, createVaultKey, joinVaultKey, openVaultKey, prepareRotation, rewrapVaultKey, rewrapVaultKeyKeepingKek, unwrapVaultKey, type Kek, type Rotation } from "./keys";
export { IDLE_LOCK_MS, UnlockCancelledError, VaultSession, currentKey, useVault, vaultSession, type StoredVaultKey, type UnlockedVault } from "./session";
export { VAULT_PASSPHRASE_MAX, VAULT_PASSPHRASE_MIN, passphraseStrength, type PassphraseStrength } from "./strength";
export { sealerOf } from "./sealer";
export { CLIPBOARD_CLEAR_MS, copySecret } from "./clipboard";
export { lostWrappings, vaultNotices, wrappingsOf, type VaultNotice } from "./wrappings";
export { VaultRotationError, rotateVault, type RotateOptions } from "./rotate";
