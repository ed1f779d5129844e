// Who made a change, for the conflict notes: the sync engine's conflict records name the client id
// (device database) that wrote the losing value; the workspace's device lookup
// (GET /api/v1/workspaces/{id}/devices, cached in the device database by clientdb so it works
// offline once fetched) says which member's device that is. "This device", "another of your
// devices", "<member>'s device", or, for a device the lookup does not know (a former member's, or
// not fetched yet), "another device".
import { refreshWorkspaceDevices, useClientDb, useWorkspaceDevices, type ClientDb, type WorkspaceDevice } from "@patrimonio/clientdb";
import { useCallback, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { API_BASE_URL } from "../api/client";
import { useMe } from "../api/queries";

export type DeviceAuthor =
  | { kind: "thisDevice" }
  | { kind: "myOtherDevice" }
  | { kind: "member"; name: string }
  | { kind: "unknown" };

/** A member's name as people read it: first and last name, else the e-mail address. */
export function memberName(d: Pick<WorkspaceDevice, "firstName" | "lastName" | "email">): string {
  return `${d.firstName} ${d.lastName}`.trim() || d.email;
}

/** Who a client id is, seen from this device (its client id) and its user. Pure. */
export function deviceAuthor(
  clientId: string,
  me: { clientId: string | undefined; userId: string | undefined },
  devices: readonly WorkspaceDevice[] | undefined,
): DeviceAuthor {
  if (me.clientId !== undefined && clientId === me.clientId) return { kind: "thisDevice" };
  const device = devices?.find((d) => d.clientId === clientId);
  if (!device) return { kind: "unknown" };
  if (me.userId !== undefined && device.userId === me.userId) return { kind: "myOtherDevice" };
  return { kind: "member", name: memberName(device) };
}

/** A lookup for the same unknown devices is asked at most this often (per workspace). */
const RETRY_MS = 60_000;
const lastTry = new Map<string, number>();

async function refresh(db: ClientDb, workspaceId: string, unknown: string): Promise<void> {
  const key = `${db.clientId}/${workspaceId}/${unknown}`;
  const last = lastTry.get(key);
  if (last !== undefined && Date.now() - last < RETRY_MS) return;
  lastTry.set(key, Date.now());
  try {
    await refreshWorkspaceDevices(db, workspaceId, { fetch: (input, init) => globalThis.fetch(input, init), baseUrl: API_BASE_URL });
  } catch {
    // Offline or refused: the cached lookup (or "another device") stays.
    lastTry.delete(key);
  }
}

/**
 * The text naming who made a change, by client id, for a workspace's conflicts (`authors`: the
 * client ids shown). Fetches the lookup when one of them is a device it does not know (online; for
 * the same unknown devices at most once a minute, again when the browser comes back online).
 */
export function useConflictAuthor(workspaceId: string | undefined, authors: readonly string[] = []): (clientId: string) => string {
  const { t } = useTranslation();
  const db = useClientDb();
  const me = useMe();
  const cached = useWorkspaceDevices(workspaceId);
  const userId = me.data?.user.id;
  const devices = cached?.devices;
  // The authors this device cannot name yet, as one key ("" when it can name them all).
  const unknown = [...new Set(authors.filter((a) => a !== db?.clientId && !devices?.some((d) => d.clientId === a)))].sort().join(",");

  useEffect(() => {
    if (!db || !workspaceId || cached === undefined || unknown === "") return;
    const online = typeof navigator === "undefined" || navigator.onLine !== false;
    if (online) void refresh(db, workspaceId, unknown);
    const back = () => void refresh(db, workspaceId, unknown);
    window.addEventListener("online", back);
    return () => window.removeEventListener("online", back);
  }, [db, workspaceId, cached, unknown]);

  return useCallback(
    (clientId: string) => {
      const who = deviceAuthor(clientId, { clientId: db?.clientId, userId }, devices);
      switch (who.kind) {
        case "thisDevice":
          return t("assets.conflict.thisDevice");
        case "myOtherDevice":
          return t("assets.conflict.myOtherDevice");
        case "member":
          return t("assets.conflict.memberDevice", { name: who.name });
        case "unknown":
          return t("assets.conflict.otherDevice");
      }
    },
    [db, userId, devices, t],
  );
}
