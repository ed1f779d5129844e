import type { ApiClient } from "../api/client";
import { endpoints } from "../api/endpoints";
import { createPasskey } from "./webauthn";

/** Registers a new passkey for the signed-in user: options from the server, the browser's prompt, back. */
export async function registerPasskey(api: ApiClient, name?: string) {
  const options = await endpoints.passkeyRegisterBegin(api);
  const credential = await createPasskey(options);
  return endpoints.passkeyRegisterFinish(api, credential, name);
}
