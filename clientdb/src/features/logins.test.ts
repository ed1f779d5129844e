// The vault's commands against a real Dexie database (fake-indexeddb, as clientdb's own tests).
import { describe, expect, test } from "vitest";
import { dbOf } from "../clientdb";
import { WORKSPACE, openDevice } from "../../test/support";
import { saveVaultKey } from "./logins";

const KEY = {
  keyId: "AAECAwQFBgc",
  kdf: { algorithm: "argon2id", memoryKiB: 65536, iterations: 3, parallelism: 1, salt: "AAECAwQFBgcICQoLDA0ODw" },
  wrappedKey: `v1.AAECAwQFBgcICQoL.${"A".repeat(64)}`,
} as const;

describe("vault key commands", () => {
  test("a wrapped vault key is never deleted: the device refuses, as the server does, and writes nothing", async () => {
    const { db } = await openDevice();
    const saved = await saveVaultKey(db, WORKSPACE, KEY);
    if (!saved.ok) throw new Error(JSON.stringify(saved.issues));
    expect(await db.delete("vaultKeys", saved.id)).toEqual({ ok: false, issues: [{ path: "", key: "sync.reject.vaultKeyKept", params: {} }] });
    expect((await db.get("vaultKeys", saved.id))?.deleted).toBe(false);
    expect((await dbOf(db).outbox.toArray()).map((o) => o.mutation.op)).toEqual(["put"]);
  });
});
