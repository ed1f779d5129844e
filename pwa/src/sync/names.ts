// Names shared by the device database's engine and whoever needs them without loading it.

/** The sync socket's address for a page served from `location` (same origin: the session cookie
 * goes with the handshake). */
export function syncUrl(location: Pick<Location, "protocol" | "host">): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/v1/sync`;
}

/** The device database name of a user: each user who signs in on this browser gets their own. */
export function deviceDbName(userId: string): string {
  return `patrimonio-${userId}`;
}
