// WebAuthn glue: the server (go-webauthn) sends options as JSON with binary fields in base64url;
// navigator.credentials wants ArrayBuffers, and its answer goes back as JSON in base64url again.

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const LOOKUP = new Map([...ALPHABET].map((c, i) => [c, i]));

/** Bytes → base64url without padding (RFC 4648 §5). */
export function bufferToBase64url(data: ArrayBuffer | ArrayBufferView): string {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * base64url (padding optional; plain base64's "+" and "/" accepted too, since some servers send
 * them) → bytes. Throws a SyntaxError on anything else.
 */
export function base64urlToBuffer(text: string): ArrayBuffer {
  const clean = text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  if (clean.length % 4 === 1) throw new SyntaxError(`not base64url: ${JSON.stringify(text)}`);
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let index = 0;
  for (const c of clean) {
    const v = LOOKUP.get(c);
    if (v === undefined) throw new SyntaxError(`not base64url: ${JSON.stringify(text)}`);
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (value >> bits) & 0xff;
    }
  }
  return bytes.buffer;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** go-webauthn wraps the options in {"publicKey": …}; accept both that and the bare options. */
function unwrap(options: unknown): Json {
  if (!isObject(options)) throw new TypeError("WebAuthn options must be an object");
  return isObject(options.publicKey) ? options.publicKey : options;
}

function descriptors(list: unknown): PublicKeyCredentialDescriptor[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.map((item: Json) => ({
    ...(item as object),
    type: "public-key",
    id: base64urlToBuffer(String(item.id)),
  })) as PublicKeyCredentialDescriptor[];
}

/** The server's creation options (JSON) → what navigator.credentials.create({publicKey}) takes. */
export function creationOptionsFromJSON(options: unknown): PublicKeyCredentialCreationOptions {
  const json = unwrap(options);
  const user = json.user as Json;
  const { excludeCredentials, ...rest } = json;
  const out = {
    ...rest,
    challenge: base64urlToBuffer(String(json.challenge)),
    user: { ...user, id: base64urlToBuffer(String(user.id)) },
  } as unknown as PublicKeyCredentialCreationOptions;
  const exclude = descriptors(excludeCredentials);
  if (exclude) out.excludeCredentials = exclude;
  return out;
}

/** The server's request options (JSON) → what navigator.credentials.get({publicKey}) takes. */
export function requestOptionsFromJSON(options: unknown): PublicKeyCredentialRequestOptions {
  const json = unwrap(options);
  const { allowCredentials, ...rest } = json;
  const out = { ...rest, challenge: base64urlToBuffer(String(json.challenge)) } as unknown as PublicKeyCredentialRequestOptions;
  const allow = descriptors(allowCredentials);
  if (allow) out.allowCredentials = allow;
  return out;
}

/** A new credential (from create) as the JSON the server's register/finish reads. */
export function registrationToJSON(credential: PublicKeyCredential) {
  const response = credential.response as AuthenticatorAttestationResponse;
  const transports = typeof response.getTransports === "function" ? response.getTransports() : undefined;
  return {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: {
      clientDataJSON: bufferToBase64url(response.clientDataJSON),
      attestationObject: bufferToBase64url(response.attestationObject),
      ...(transports ? { transports } : {}),
    },
  };
}

/** An assertion (from get) as the JSON the server's login/finish reads. */
export function assertionToJSON(credential: PublicKeyCredential) {
  const response = credential.response as AuthenticatorAssertionResponse;
  return {
    id: credential.id,
    rawId: bufferToBase64url(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults(),
    response: {
      clientDataJSON: bufferToBase64url(response.clientDataJSON),
      authenticatorData: bufferToBase64url(response.authenticatorData),
      signature: bufferToBase64url(response.signature),
      ...(response.userHandle ? { userHandle: bufferToBase64url(response.userHandle) } : {}),
    },
  };
}

/** Whether this browser can create and use passkeys at all. */
export function webauthnSupported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function" && !!navigator.credentials;
}

/** The user closed the browser's passkey prompt, or it timed out (not an error worth shouting about). */
export function isWebAuthnCancel(error: unknown): boolean {
  return error instanceof DOMException && (error.name === "NotAllowedError" || error.name === "AbortError");
}

/** Creates a passkey with the server's creation options; returns the JSON for register/finish. */
export async function createPasskey(options: unknown) {
  const credential = await navigator.credentials.create({ publicKey: creationOptionsFromJSON(options) });
  if (!(credential instanceof PublicKeyCredential)) throw new DOMException("No credential was created", "NotAllowedError");
  return registrationToJSON(credential);
}

/** Signs in with a discoverable passkey; returns the JSON for login/finish. */
export async function getPasskeyAssertion(options: unknown) {
  const json = unwrap(options);
  const mediation = typeof (options as Json).mediation === "string" ? ((options as Json).mediation as CredentialMediationRequirement) : undefined;
  const credential = await navigator.credentials.get({
    publicKey: requestOptionsFromJSON(json),
    ...(mediation && mediation !== "conditional" ? { mediation } : {}),
  });
  if (!(credential instanceof PublicKeyCredential)) throw new DOMException("No passkey was chosen", "NotAllowedError");
  return assertionToJSON(credential);
}
