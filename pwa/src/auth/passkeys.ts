import type { ApiClient } from "../api/client";
import { endpoints } from "../api/endpoints";
import { createPasskey } from "./webauthn";

/**
 * The authenticator already holds a passkey of this account: the server lists the user's passkeys
 * as excluded, and the browser refuses with InvalidStateError.
 */
export class PasskeyExistsError extends Error {
  override readonly name = "PasskeyExistsError";
}

/** The name of a new passkey: the device it is made on ("Chrome · Android"), or fallback. */
export function deviceName(userAgent: string, fallback: string): string {
  const browser =
    /Edg\//.test(userAgent) ? "Edge"
    : /Firefox\//.test(userAgent) ? "Firefox"
    : /(Chrome|Chromium|CriOS)\//.test(userAgent) ? "Chrome"
    : /Safari\//.test(userAgent) ? "Safari"
    : "";
  const system =
    /iPhone/.test(userAgent) ? "iPhone"
    : /iPad/.test(userAgent) ? "iPad"
    : /Android/.test(userAgent) ? "Android"
    : /Mac OS X|Macintosh/.test(userAgent) ? "macOS"
    : /Windows/.test(userAgent) ? "Windows"
    : /CrOS/.test(userAgent) ? "ChromeOS"
    : /Linux/.test(userAgent) ? "Linux"
    : "";
  if (browser && system) return `${browser} · ${system}`;
  return browser || system || fallback;
}

/**
 * Registers a new passkey for the signed-in user: options from the server, the browser's prompt,
 * back. It is named after the device (fallbackName when the browser cannot be told). A device that
 * already holds one of the account's passkeys is a PasskeyExistsError.
 */
export async function registerPasskey(api: ApiClient, fallbackName?: string) {
  const name = deviceName(typeof navigator === "undefined" ? "" : navigator.userAgent, fallbackName ?? "");
  const options = await endpoints.passkeyRegisterBegin(api);
  let credential;
  try {
    credential = await createPasskey(options);
  } catch (error) {
    if (error instanceof DOMException && error.name === "InvalidStateError") throw new PasskeyExistsError(error.message, { cause: error });
    throw error;
  }
  return endpoints.passkeyRegisterFinish(api, credential, name || undefined);
}
