// The sync server refused this app's version (protocol_version or schema_version: the server was
// updated): the engine (loaded in its own chunk) says so here, and UpdatePrompt asks the service
// worker for the new version and offers a reload. Once said, it stays said for the page's life.

let required = false;
const listeners = new Set<() => void>();

/** The server needs a newer app. */
export function requireAppUpdate(): void {
  if (required) return;
  required = true;
  for (const listener of listeners) listener();
}

/** Calls `listener` once the server needs a newer app (at once if it already did); returns the
 * unsubscribe. */
export function onAppUpdateRequired(listener: () => void): () => void {
  listeners.add(listener);
  if (required) listener();
  return () => listeners.delete(listener);
}

/** Forgets that an update was required (tests). */
export function resetAppUpdateRequired(): void {
  required = false;
}
