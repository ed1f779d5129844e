// The vault's commands against a real Dexie database (fake-indexeddb, as clientdb's own tests).
import { describe, expect, test } from "vitest";
import { applyPage } from "../apply";
import { dbOf, type ClientDb } from "../clientdb";
import { internals } from "../internal";
import { WORKSPACE, openDevice } from "../../test/support";
import { saveVaultKey } from "./logins";

const wrapping = (salt: string, body: string) =>
  ({
    keyId: "AAECAwQFBgc",
    kdf: { algorithm: "argon2id", memoryKiB: 65536, iterations: 3, parallelism: 1, salt },
    wrappedKey: `v1.AAECAwQFBgcICQoL.${body.repeat(64)}`,
  }) as const;
const KEY = wrapping("AAECAwQFBgcICQoLDA0ODw", "A");
const MINE = wrapping("BBECAwQFBgcICQoLDA0ODw", "B");
const THEIRS = wrapping("CCECAwQFBgcICQoLDA0ODw", "C");
const OTHER_CLIENT = "0f0f0f0f-0000-4000-8000-00000000000f";

/** A vault key record whose passphrase this device and another changed at the same time: the
 * other device's change (later stamp) won, this device's is kept as conflicts (one per field). */
async function concurrentRewraps(db: ClientDb): Promise<{ id: string; mine: string }> {
  const created = await saveVaultKey(db, WORKSPACE, KEY);
  if (!created.ok) throw new Error(JSON.stringify(created.issues));
  const [create] = await dbOf(db).outbox.orderBy("mutationId").toArray();
  const base = Object.fromEntries(Object.keys(KEY).map((f) => [f, create!.mutation.stamp]));
  await applyPage(internals(db), { workspaceId: WORKSPACE, cursor: 1, hasMore: false, snapshot: false, changes: [{ seq: 1, collection: "vaultKeys", recordId: created.id, kind: "mutation", mutationId: create!.mutationId, mutation: create!.mutation }] });
  expect((await saveVaultKey(db, WORKSPACE, MINE, created.id)).ok).toBe(true);
  const rewrap = (await dbOf(db).outbox.orderBy("mutationId").toArray()).pop();
  const theirs = { op: "put" as const, stamp: "2099-01-01T00:00:00.000Z-0000-0f0f0f0f0f0f0f0f", author: OTHER_CLIENT, fields: { ...THEIRS }, base };
  await applyPage(internals(db), {
    workspaceId: WORKSPACE,
    cursor: 3,
    hasMore: false,
    snapshot: false,
    changes: [
      { seq: 2, collection: "vaultKeys", recordId: created.id, kind: "mutation", mutationId: 1, mutation: theirs },
      { seq: 3, collection: "vaultKeys", recordId: created.id, kind: "mutation", mutationId: rewrap!.mutationId, mutation: rewrap!.mutation },
    ],
  });
  expect((await db.get("vaultKeys", created.id))?.fields).toEqual(THEIRS);
  return { id: created.id, mine: rewrap!.mutation.stamp };
}

describe("vault key commands", () => {
  test("a wrapped vault key is never deleted: the device refuses, as the server does, and writes nothing", async () => {
    const { db } = await openDevice();
    const saved = await saveVaultKey(db, WORKSPACE, KEY);
    if (!saved.ok) throw new Error(JSON.stringify(saved.issues));
    expect(await db.delete("vaultKeys", saved.id)).toEqual({ ok: false, issues: [{ path: "", key: "sync.reject.vaultKeyKept", params: {} }] });
    expect((await db.get("vaultKeys", saved.id))?.deleted).toBe(false);
    expect((await dbOf(db).outbox.toArray()).map((o) => o.mutation.op)).toEqual(["put"]);
  });

  test("restoreWrite puts a losing rewrap back whole (salt and wrapped key of one change), in one mutation that closes its conflicts", async () => {
    const { db } = await openDevice();
    const { id, mine } = await concurrentRewraps(db);
    const lost = await db.conflicts(WORKSPACE);
    expect(lost.map((c) => [c.field, c.stamp]).sort()).toEqual([
      ["kdf", mine],
      ["wrappedKey", mine],
    ]);
    expect(await db.restoreWrite("vaultKeys", id, mine)).toEqual({ ok: true });
    expect((await db.get("vaultKeys", id))?.fields).toEqual(MINE);
    expect(await db.conflicts(WORKSPACE)).toEqual([]);
    const out = await dbOf(db).outbox.orderBy("mutationId").toArray();
    const last = out[out.length - 1]!.mutation;
    expect(last.fields).toEqual({ kdf: MINE.kdf, wrappedKey: MINE.wrappedKey });
    expect(last.resolves?.map((r) => [r.field, r.stamp]).sort()).toEqual([
      ["kdf", mine],
      ["wrappedKey", mine],
    ]);
  });

  test("dismissWrite keeps the winning rewrap and closes every conflict of the losing one", async () => {
    const { db } = await openDevice();
    const { id, mine } = await concurrentRewraps(db);
    expect(await db.dismissWrite("vaultKeys", id, mine)).toEqual({ ok: true });
    expect((await db.get("vaultKeys", id))?.fields).toEqual(THEIRS);
    expect(await db.conflicts(WORKSPACE)).toEqual([]);
  });
});
