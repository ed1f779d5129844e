// Who a device is: the workspace's devices (sync client ids) with the member each belongs to, from
// GET /api/v1/workspaces/{id}/devices, cached in the device database (meta row
// "devices:<workspaceId>", wiped with the database at sign-out) so that conflict notes can name the
// person who made a competing change offline once fetched. The sync engine's conflict records carry
// only the author's client id (sync/MERGE.md); this is the lookup from that id to a member.
import { useLiveQuery } from "dexie-react-hooks";
import { dbOf, type ClientDb } from "../clientdb";
import { useClientDb } from "../context";

/** One device of a workspace and its member (names empty until the member gives them). */
export interface WorkspaceDevice {
  clientId: string;
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
}

/** The cached lookup of one workspace. */
export interface DevicesMeta {
  key: `devices:${string}`;
  workspaceId: string;
  devices: WorkspaceDevice[];
  checkedAt: number;
}

export interface RefreshDevicesOptions {
  /** The fetch to use (the window's in the PWA; Node's with a Cookie header in tests). */
  fetch: typeof fetch;
  /** The API's base ("/api/v1" by default). */
  baseUrl?: string;
  headers?: Record<string, string>;
}

function metaKey(workspaceId: string): DevicesMeta["key"] {
  return `devices:${workspaceId}`;
}

function isDevice(value: unknown): value is WorkspaceDevice {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return ["clientId", "userId", "email", "firstName", "lastName"].every((k) => typeof v[k] === "string");
}

/**
 * Fetches the workspace's devices and replaces the cached lookup. Throws when the server cannot be
 * reached or answers an error (the cache stays as it was).
 */
export async function refreshWorkspaceDevices(handle: ClientDb, workspaceId: string, options: RefreshDevicesOptions): Promise<WorkspaceDevice[]> {
  const url = `${options.baseUrl ?? "/api/v1"}/workspaces/${encodeURIComponent(workspaceId)}/devices`;
  const res = await options.fetch(url, { headers: { Accept: "application/json", ...options.headers }, credentials: "include", cache: "no-store" });
  if (!res.ok) throw new Error(`GET workspace devices: HTTP ${res.status}`);
  const body = (await res.json()) as { devices?: unknown };
  if (!Array.isArray(body.devices)) throw new Error("GET workspace devices: no list");
  const devices = body.devices.filter(isDevice);
  const row: DevicesMeta = { key: metaKey(workspaceId), workspaceId, devices, checkedAt: Date.now() };
  // The meta table holds a few kinds of rows; this one is the lookup's own.
  await dbOf(handle).meta.put(row as never);
  return devices;
}

/** The cached lookup of a workspace (what the last refresh stored), or undefined. */
export async function readWorkspaceDevices(handle: ClientDb, workspaceId: string): Promise<DevicesMeta | undefined> {
  return (await dbOf(handle).meta.get(metaKey(workspaceId))) as DevicesMeta | undefined;
}

/** The cached lookup, live: undefined while loading, null when never fetched. */
export function useWorkspaceDevices(workspaceId: string | undefined): DevicesMeta | null | undefined {
  const handle = useClientDb();
  return useLiveQuery(
    async () => (handle && workspaceId ? ((await readWorkspaceDevices(handle, workspaceId)) ?? null) : undefined),
    [handle, workspaceId],
  );
}
