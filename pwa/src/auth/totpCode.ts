/** An authenticator (or e-mailed) code: exactly 6 digits (spec). */
export const TOTP_CODE_LENGTH = 6;
export const TOTP_CODE_PATTERN = /^[0-9]{6}$/;

/** Groups a TOTP secret in blocks of four, as authenticator apps show it, for typing by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
}
