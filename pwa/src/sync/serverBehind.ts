// When the sync server refuses this app's version, which side is behind? Usually the server was
// updated and the app must follow (UpdatePrompt). But a server rolled back to an older build
// refuses a newer app too, and telling its user to "update" would have the service worker offer
// them the older build, which cannot open the newer device database. The server's health says
// which versions its socket speaks (GET /api/v1/health, `sync`); a server older than this app is
// "behind": the app keeps every change on the device, says so, and tries again now and then.
import { PROTOCOL_VERSION, SCHEMA_VERSION } from "@patrimonio/shared-schema";
import { useSyncExternalStore } from "react";
import { API_BASE_URL } from "../api/client";

/** Which side a version refusal puts behind: the server ("behind": the app waits for it), the app
 * ("ahead": the server is newer, the app must update), or null (no answer that tells). */
export type ServerSide = "behind" | "ahead" | null;

/** Reads the server's health and compares its sync versions with this app's. A health without
 * them comes from a build older than this app (every build since says them), so it is behind. */
export async function compareServerVersions(fetchImpl: typeof fetch = fetch): Promise<ServerSide> {
  let body: unknown;
  try {
    // Not the API client: a 503 answer (database down) still says the versions.
    const res = await fetchImpl(`${API_BASE_URL}/health`, { cache: "no-store", credentials: "same-origin" });
    // 503: the database does not answer, and the versions are still said.
    if (!res.ok && res.status !== 503) return null;
    body = await res.json();
  } catch {
    return null;
  }
  if (typeof body !== "object" || body === null || typeof (body as { version?: unknown }).version !== "string") return null;
  const sync = (body as { sync?: unknown }).sync;
  if (sync === undefined) return "behind";
  const { protocolVersion, schemaVersion } = (sync ?? {}) as { protocolVersion?: unknown; schemaVersion?: unknown }; // (null: no numbers)
  if (typeof protocolVersion !== "number" || typeof schemaVersion !== "number") return null;
  if (protocolVersion > PROTOCOL_VERSION || schemaVersion > SCHEMA_VERSION) return "ahead";
  // Older, or the same (the refusal came from an older instance still serving during a deploy).
  return "behind";
}

let behind = false;
const listeners = new Set<() => void>();

/** Whether the server is behind this app, now. */
export function serverIsBehind(): boolean {
  return behind;
}

/** Says whether the server is behind this app (cleared at the next welcome). */
export function setServerBehind(value: boolean): void {
  if (behind === value) return;
  behind = value;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the server is behind this app, live. */
export function useServerBehind(): boolean {
  return useSyncExternalStore(subscribe, serverIsBehind, () => false);
}
