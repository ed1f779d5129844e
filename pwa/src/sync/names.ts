// Names shared by the device database's engine and whoever needs them without loading it.

/** The sync socket's address for a page served from `location` (same origin: the session cookie
 * goes with the handshake), naming the user whose device database syncs: if the cookie is another
 * user's by then (someone else signed in, in another tab), the server refuses the socket (4401). */
export function syncUrl(location: Pick<Location, "protocol" | "host">, userId: string): string {
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/api/v1/sync?user=${encodeURIComponent(userId)}`;
}

/** The device database name of a user: each user who signs in on this browser gets their own. */
export function deviceDbName(userId: string): string {
  return `patrimonio-${userId}`;
}
