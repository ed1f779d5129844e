// Seeds a workspace with any synced records, the way a device writes them (bench/assets/seed.ts's
// approach: a @patrimonio/clientdb device in Node creates them through db.create in batches of
// 1,000 and its SyncClient pushes them over the real socket until the server acknowledged all).
// Records refer to earlier ones with "$ref:<key>" strings (an asset's legalStructureId, a
// valuation's assetId...), replaced by the ids the device gave them.
import { MemoryLockManager, SyncClient } from "@patrimonio/clientdb";
import type { CollectionName } from "@patrimonio/shared-schema";
import { nodeSocket, openNodeDevice, signIn, syncUrlOf } from "@patrimonio/clientdb/node";

export interface PlannedRecord {
  collection: CollectionName;
  /** A name later records use as "$ref:<key>". */
  key?: string;
  fields: Record<string, unknown>;
}

function resolve(value: unknown, ids: Map<string, string>): unknown {
  if (typeof value === "string" && value.startsWith("$ref:")) {
    const id = ids.get(value.slice(5));
    if (!id) throw new Error(`unknown reference ${value}`);
    return id;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, ids));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, ids)]));
  return value;
}

export async function seedRecords(baseUrl: string, email: string, password: string, plan: readonly PlannedRecord[], workspaceId?: string): Promise<{ workspaceId: string; ids: Record<string, string>; ms: number }> {
  const started = performance.now();
  const session = await signIn(baseUrl, email, password);
  const workspace = workspaceId ? session.workspaces.find((w) => w.id === workspaceId) : (session.workspaces.find((w) => w.kind === "personal") ?? session.workspaces[0]);
  if (!workspace) throw new Error(`${email} has no workspace ${workspaceId ?? ""}`);
  const { db } = await openNodeDevice({ name: `seed-dashboard-${email}` });
  const client = new SyncClient(db, {
    url: syncUrlOf(baseUrl),
    workspaces: () => [workspace.id],
    socket: nodeSocket({ origin: baseUrl, cookie: session.cookie }),
    locks: new MemoryLockManager(),
  });
  const ids = new Map<string, string>();
  try {
    for (let start = 0; start < plan.length; start += 1000) {
      await db.batch(async () => {
        for (const r of plan.slice(start, start + 1000)) {
          const fields = resolve(r.fields, ids) as never;
          const result = await db.create(r.collection, workspace.id, fields);
          if (!result.ok) throw new Error(`${r.collection}: ${JSON.stringify(result.issues)} for ${JSON.stringify(fields)}`);
          if (r.key) ids.set(r.key, result.id);
        }
      });
    }
    client.start();
    await client.idle();
    return { workspaceId: workspace.id, ids: Object.fromEntries(ids), ms: performance.now() - started };
  } finally {
    await client.stop();
    db.close();
  }
}
