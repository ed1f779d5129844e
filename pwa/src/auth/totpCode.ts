import { OTP_CODE_PATTERN } from "@patrimonio/shared-schema";

/** An authenticator (or e-mailed) code: exactly 6 digits (spec); the shared schema's one rule. */
export const TOTP_CODE_LENGTH = 6;
export const TOTP_CODE_PATTERN = OTP_CODE_PATTERN;

/** Groups a TOTP secret in blocks of four, as authenticator apps show it, for typing by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s+/g, "").replace(/(.{4})(?=.)/g, "$1 ");
}
