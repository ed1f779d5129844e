// RFC 6238 TOTP (SHA-1, 30-second steps, 6 digits), as an authenticator app computes it, so the
// e2e tests can answer the server's second-factor prompts from the manual setup code.
import { createHmac } from "node:crypto";

export const TOTP_PERIOD_SECONDS = 30;

/** RFC 4648 base32 (the alphabet authenticator apps use), spaces and padding ignored. */
export function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    const v = alphabet.indexOf(c);
    if (v < 0) throw new Error(`not base32: ${JSON.stringify(text)}`);
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((value >> bits) & 0xff);
    }
  }
  return Buffer.from(out);
}

/** The time step of a moment (seconds since the epoch / 30). */
export function timeStep(atMs: number = Date.now()): number {
  return Math.floor(atMs / 1000 / TOTP_PERIOD_SECONDS);
}

/** The 6-digit code of `step` for the base32 secret (RFC 4226 dynamic truncation). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac("sha1", base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return String(binary).padStart(6, "0");
}

/**
 * A code the server has not seen yet. Codes are single-use: the server takes only steps after the
 * last one used, within one step of now. So: the step after `lastUsedStep` when that is at most one
 * step ahead, else (two or more ahead) wait until time catches up; the current step once time has
 * moved past.
 */
export async function freshCode(secret: string, lastUsedStep: number): Promise<{ code: string; step: number }> {
  while (lastUsedStep + 1 > timeStep() + 1) {
    const nextStepAt = (timeStep() + 1) * TOTP_PERIOD_SECONDS * 1000;
    await new Promise((resolve) => setTimeout(resolve, nextStepAt - Date.now() + 50));
  }
  const step = Math.max(timeStep(), lastUsedStep + 1);
  return { code: totpCode(secret, step), step };
}
