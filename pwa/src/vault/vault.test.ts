// The vault's crypto with the real WebCrypto and the real Argon2id (hash-wasm), and the logins
// commands against a real Dexie database (fake-indexeddb): only ciphertext reaches the records and
// the outbox. Tests other than the parameters test use a small Argon2id memory (stored with the
// key, as the parameters of any key are) to stay fast.
import { ClientDb, deleteLogin, rotateVaultKey, saveLogin, saveVaultKey } from "@patrimonio/clientdb";
import { validate, VAULT_CIPHERTEXT_PATTERN, vaultCiphertextMax } from "@patrimonio/shared-schema";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { afterEach, describe, expect, test, vi } from "vitest";
import { fromBase64url, toBase64url } from "./base64url";
import { openField, resealField, sealField, VaultOpenError } from "./cipher";
import { createVaultKey, DEFAULT_KDF, joinVaultKey, prepareRotation, rewrapVaultKey, unwrapVaultKey, WrongPassphraseError } from "./keys";
import { rotateVault, VaultRotationError } from "./rotate";
import { sealerOf } from "./sealer";
import { SESSION_CHANGED_EVENT, SIGN_OUT_EVENT } from "../auth/signOut";
import { currentKey, IDLE_LOCK_MS, UnlockCancelledError, VaultSession } from "./session";
import { passphraseStrength } from "./strength";
import { vaultNotices, wrappingsOf } from "./wrappings";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
const OTHER_WS = "0a1b2c3d-0000-4000-8000-000000000002";
const RECORD = "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e5f";
const FAST = { algorithm: "argon2id", memoryKiB: 8192, iterations: 1, parallelism: 1 } as const;
const place = { workspaceId: WS, recordId: RECORD, field: "secret" };

describe("base64url", () => {
  test("round-trips every byte value without padding", () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = toBase64url(all);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect([...fromBase64url(text)]).toEqual([...all]);
    expect(() => fromBase64url("a+b")).toThrow();
  });
});

describe("vault keys", () => {
  // Two real 64 MiB derivations (~1.3 s each alone): more than Vitest's default 5 s when the
  // passphrase dialog's run beside it on two cores.
  test("the default parameters are Argon2id m=64 MiB, t=3, p=1 and a real unlock works with them", { timeout: 30_000 }, async () => {
    expect(DEFAULT_KDF).toEqual({ algorithm: "argon2id", memoryKiB: 65536, iterations: 3, parallelism: 1 });
    const { record } = await createVaultKey("correct horse battery staple", WS);
    expect(record.kdf).toMatchObject(DEFAULT_KDF);
    expect(fromBase64url(record.kdf.salt)).toHaveLength(16);
    expect(validate("vaultKey", record).ok).toBe(true);
    const opened = await unwrapVaultKey(record, "correct horse battery staple", WS);
    expect(opened.keyId).toBe(record.keyId);
    expect(opened.key.extractable).toBe(false);
  });

  test("a wrong passphrase, another workspace or an altered record do not open the key", async () => {
    const { record } = await createVaultKey("el perro de San Roque", WS, FAST);
    await expect(unwrapVaultKey(record, "el perro de san roque", WS)).rejects.toBeInstanceOf(WrongPassphraseError);
    await expect(unwrapVaultKey(record, "el perro de San Roque", OTHER_WS)).rejects.toBeInstanceOf(WrongPassphraseError);
    await expect(unwrapVaultKey({ ...record, kdf: { ...record.kdf, iterations: 2 } }, "el perro de San Roque", WS)).rejects.toBeInstanceOf(WrongPassphraseError);
  });

  test("the passphrase is compared after NFC normalisation", async () => {
    const { record } = await createVaultKey("canción de cuna larga", WS, FAST);
    await expect(unwrapVaultKey(record, "cancio\u0301n de cuna larga", WS)).resolves.toMatchObject({ keyId: record.keyId });
  });

  test("changing the passphrase re-wraps the same key: old ciphertext opens with the new one only", async () => {
    const made = await createVaultKey("first passphrase here", WS, FAST);
    const sealed = await sealField(made.key, place, "s3cret");
    const rewrapped = await rewrapVaultKey(made.record, "first passphrase here", "second passphrase here", WS, FAST);
    expect(rewrapped.keyId).toBe(made.record.keyId);
    expect(rewrapped.kdf.salt).not.toBe(made.record.kdf.salt);
    await expect(unwrapVaultKey(rewrapped, "first passphrase here", WS)).rejects.toBeInstanceOf(WrongPassphraseError);
    const reopened = await unwrapVaultKey(rewrapped, "second passphrase here", WS);
    expect(await openField(new Map([[reopened.keyId, reopened.key]]), place, sealed)).toBe("s3cret");
    await expect(rewrapVaultKey(made.record, "not the passphrase", "x y z w v u", WS, FAST)).rejects.toBeInstanceOf(WrongPassphraseError);
  });
});

describe("field ciphertext", () => {
  test("v1 envelope, fresh nonce per write, bound to workspace, record and field", async () => {
    const { key } = await createVaultKey("bound passphrase ok", WS, FAST);
    const keys = new Map([[key.keyId, key.key]]);
    const a = await sealField(key, place, "p@ss'; DROP TABLE 🔑");
    const b = await sealField(key, place, "p@ss'; DROP TABLE 🔑");
    expect(a).toMatch(VAULT_CIPHERTEXT_PATTERN);
    expect(a.split(".")[1]).toBe(key.keyId);
    expect(a.split(".")[2]).not.toBe(b.split(".")[2]);
    expect(a).not.toContain("DROP");
    expect(await openField(keys, place, a)).toBe("p@ss'; DROP TABLE 🔑");
    for (const moved of [{ ...place, field: "notes" }, { ...place, recordId: "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e60" }, { ...place, workspaceId: OTHER_WS }]) {
      await expect(openField(keys, moved, a)).rejects.toEqual(new VaultOpenError("failed"));
    }
    const flipped = a.slice(0, -2) + (a.at(-2) === "A" ? "B" : "A") + a.at(-1);
    await expect(openField(keys, place, flipped)).rejects.toEqual(new VaultOpenError("failed"));
    await expect(openField(new Map(), place, a)).rejects.toEqual(new VaultOpenError("no_key"));
    await expect(openField(keys, place, "plain text")).rejects.toEqual(new VaultOpenError("malformed"));
  });

  test("the longest plaintext fits the schema's ciphertext limit", async () => {
    const { key } = await createVaultKey("limits passphrase", WS, FAST);
    const longest = await sealField(key, place, "😀".repeat(1000));
    expect(longest.length).toBeLessThanOrEqual(vaultCiphertextMax(1000));
    expect(validate("login", { institution: "Banco", secret: longest }).ok).toBe(true);
    expect(validate("login", { institution: "Banco", secret: "😀".repeat(1000) }).ok).toBe(false);
  });
});

describe("session", () => {
  afterEach(() => vi.useRealTimers());

  test("unlock opens every record the passphrase opens, picks the lowest id as primary; wrong passphrase changes nothing", async () => {
    const one = await createVaultKey("shared passphrase one", WS, FAST);
    const two = await createVaultKey("shared passphrase one", WS, FAST);
    const other = await createVaultKey("another passphrase", WS, FAST);
    const session = new VaultSession();
    const records = [
      { id: "0193-b", fields: two.record },
      { id: "0193-a", fields: one.record },
      { id: "0193-c", fields: other.record },
    ];
    await expect(session.unlock(WS, records, "nope nope nope")).rejects.toBeInstanceOf(WrongPassphraseError);
    expect(session.get(WS)).toBeUndefined();
    const v = await session.unlock(WS, records, "shared passphrase one");
    expect(v.primary.keyId).toBe(one.record.keyId);
    expect([...v.keys.keys()].sort()).toEqual([one.record.keyId, two.record.keyId].sort());
    expect(session.get(OTHER_WS)).toBeUndefined();
  });

  test("a passphrase change that lost to a concurrent one (its wrapping kept as conflicts) still opens the vault, and each side is told", async () => {
    const made = await createVaultKey("first passphrase ok", WS, FAST);
    const mine = await rewrapVaultKey(made.record, "first passphrase ok", "my new passphrase", WS, FAST);
    const theirs = await rewrapVaultKey(made.record, "first passphrase ok", "their new passphrase", WS, FAST);
    // The merge kept theirs (later stamp) and mine as one conflict per field it wrote.
    const lost = (field: "kdf" | "wrappedKey") => ({
      id: `vaultKeys/0193-a/${field}`,
      collection: "vaultKeys" as const,
      recordId: "0193-a",
      workspaceId: WS,
      field,
      value: mine[field],
      current: theirs[field],
      author: "client-a",
      stamp: "2026-11-30T10:00:00.000Z-0000-aaaaaaaaaaaaaaaa",
      at: Date.parse("2026-11-30T10:00:00.000Z"),
    });
    const records = [{ id: "0193-a", fields: theirs, clocks: { wrappedKey: "2026-11-30T10:00:01.000Z-0000-bbbbbbbbbbbbbbbb" } }];
    const conflicts = [lost("kdf"), lost("wrappedKey")];
    const session = new VaultSession();
    // Before: the record's own wrapping only, and my passphrase opened nothing.
    await expect(session.unlock(WS, records, "my new passphrase")).rejects.toBeInstanceOf(WrongPassphraseError);
    const wrappings = wrappingsOf(records, conflicts);
    expect(wrappings.map((w) => [w.id, w.lost])).toEqual([
      ["0193-a", undefined],
      ["0193-a", lost("kdf").stamp],
    ]);
    const v = await session.unlock(WS, wrappings, "my new passphrase");
    expect(v.primary.keyId).toBe(made.record.keyId);
    expect(vaultNotices(records, conflicts, v)).toEqual([{ kind: "lost", recordId: "0193-a", stamp: lost("kdf").stamp, at: Date.parse("2026-11-30T10:00:01.000Z") }]);
    const w = await session.unlock(WS, wrappings, "their new passphrase");
    expect(vaultNotices(records, conflicts, w)).toEqual([{ kind: "won", recordId: "0193-a", stamps: [lost("kdf").stamp], at: lost("kdf").at }]);
    // Settled (the conflicts closed): nothing more to say; changed elsewhere since: the next unlock needs the new one.
    expect(vaultNotices(records, [], w)).toEqual([]);
    expect(vaultNotices([{ id: "0193-a", fields: mine }], [], w)).toEqual([{ kind: "changed", recordId: "0193-a" }]);
  });

  test("a second key (a concurrent set-up under another passphrase) is named, and joining wraps it under the session's passphrase", async () => {
    const one = await createVaultKey("passphrase of one", WS, FAST);
    const two = await createVaultKey("passphrase of two", WS, FAST);
    const records = [
      { id: "0193-a", fields: one.record },
      { id: "0193-b", fields: two.record },
    ];
    const session = new VaultSession();
    const v = await session.unlock(WS, records, "passphrase of one");
    expect(vaultNotices(records, [], v)).toEqual([{ kind: "otherKey", recordId: "0193-b", record: two.record, rotation: false }]);
    await expect(joinVaultKey(two.record, "passphrase of one", v.kek!, WS)).rejects.toBeInstanceOf(WrongPassphraseError);
    const joined = await joinVaultKey(two.record, "passphrase of two", v.kek!, WS);
    expect(joined.record.keyId).toBe(two.record.keyId);
    expect((await unwrapVaultKey(joined.record, "passphrase of one", WS)).keyId).toBe(two.record.keyId);
    await expect(unwrapVaultKey(joined.record, "passphrase of two", WS)).rejects.toBeInstanceOf(WrongPassphraseError);
    // What the second key sealed opens with the joined key.
    const sealed = await sealField(two.key, place, "sealed by the second key");
    expect(await openField(new Map([[joined.key.keyId, joined.key.key]]), place, sealed)).toBe("sealed by the second key");
    const both = await session.unlock(WS, [records[0]!, { id: "0193-b", fields: joined.record }], "passphrase of one");
    expect(both.keys.size).toBe(2);
    expect(vaultNotices([records[0]!, { id: "0193-b", fields: joined.record }], [], both)).toEqual([]);
  });

  test("locks after the idle time, activity postpones it, sign-out locks at once", async () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    const session = new VaultSession({ target });
    const { key } = await createVaultKey("idle passphrase ok", WS, FAST);
    let changes = 0;
    session.subscribe(() => changes++);
    session.adopt(WS, key);
    vi.advanceTimersByTime(IDLE_LOCK_MS - 1000);
    target.dispatchEvent(new Event("keydown"));
    vi.advanceTimersByTime(IDLE_LOCK_MS - 1000);
    expect(session.get(WS)).toBeDefined();
    vi.advanceTimersByTime(1000);
    expect(session.get(WS)).toBeUndefined();
    session.adopt(WS, key);
    target.dispatchEvent(new Event("patrimonio:sign-out"));
    expect(session.get(WS)).toBeUndefined();
    expect(changes).toBe(4);
  });

  test("after a sleep (the clock moved, the timer did not fire) the first use or the tab's return locks before it counts", async () => {
    vi.useFakeTimers();
    const target = new EventTarget();
    let clock = 1_000_000;
    const session = new VaultSession({ target, now: () => clock });
    const { key } = await createVaultKey("sleepy passphrase ok", WS, FAST);
    session.adopt(WS, key);
    // The lid is shut for an hour: the clock moves, no timer runs.
    clock += 60 * 60 * 1000;
    target.dispatchEvent(new Event("pointerdown"));
    expect(session.get(WS)).toBeUndefined();

    session.adopt(WS, key);
    clock += IDLE_LOCK_MS;
    target.dispatchEvent(new Event("visibilitychange"));
    expect(session.get(WS)).toBeUndefined();

    // Read before any event: not handed out, and locked for the listeners just after.
    session.adopt(WS, key);
    let changes = 0;
    session.subscribe(() => changes++);
    clock += IDLE_LOCK_MS + 1;
    expect(session.get(WS)).toBeUndefined();
    await Promise.resolve();
    expect(changes).toBe(1);

    // Short of the idle time, a use keeps it open and restarts the countdown from now.
    session.adopt(WS, key);
    clock += IDLE_LOCK_MS - 1;
    target.dispatchEvent(new Event("keydown"));
    clock += IDLE_LOCK_MS - 1;
    expect(session.get(WS)).toBeDefined();
  });

  test("a sign-out or session change while an unlock is deriving its key leaves the vault locked", async () => {
    const target = new EventTarget();
    const session = new VaultSession({ target });
    const { record } = await createVaultKey("racing passphrase ok", WS, FAST);
    for (const event of [SIGN_OUT_EVENT, SESSION_CHANGED_EVENT]) {
      const pending = session.unlock(WS, [{ id: "0193-a", fields: record }], "racing passphrase ok");
      // Argon2id is still running: the session ends meanwhile.
      target.dispatchEvent(new Event(event));
      await expect(pending).rejects.toBeInstanceOf(UnlockCancelledError);
      expect(session.get(WS)).toBeUndefined();
    }
    // Lock pressed meanwhile (another tab's lock, say) cancels it as well; a later unlock works.
    const pending = session.unlock(WS, [{ id: "0193-a", fields: record }], "racing passphrase ok");
    session.lock(WS);
    await expect(pending).rejects.toBeInstanceOf(UnlockCancelledError);
    expect(session.get(WS)).toBeUndefined();
    await session.unlock(WS, [{ id: "0193-a", fields: record }], "racing passphrase ok");
    expect(session.get(WS)).toBeDefined();
  });

  test("the session ending or changing hands in this tab locks every vault", async () => {
    const target = new EventTarget();
    const session = new VaultSession({ target });
    const { key } = await createVaultKey("handover passphrase", WS, FAST);
    session.adopt(WS, key);
    session.adopt(OTHER_WS, key);
    target.dispatchEvent(new Event(SESSION_CHANGED_EVENT));
    expect(session.get(WS)).toBeUndefined();
    expect(session.get(OTHER_WS)).toBeUndefined();
  });
});

describe("logins commands", () => {
  test("only ciphertext reaches the records and the outbox; unchanged secrets are not rewritten; locked refuses", async () => {
    const factory = new IDBFactory();
    const db = await ClientDb.open({ name: "vault-test", indexedDB: factory, IDBKeyRange });
    const made = await createVaultKey("commands passphrase", WS, FAST);
    const stored = await saveVaultKey(db, WS, made.record);
    expect(stored.ok).toBe(true);
    const session = new VaultSession();
    session.adopt(WS, made.key);
    const sealer = sealerOf(session.get(WS));
    const MARK = "MARKER-hunter2-ñ";

    const locked = await saveLogin(db, WS, { institution: "Banco", secret: MARK }, null);
    expect(locked).toEqual({ ok: false, issues: [{ path: "secret", key: "validation.vault.locked", params: {} }] });
    const tooLong = await saveLogin(db, WS, { institution: "Banco", notes: "x".repeat(4001) }, sealer);
    expect(tooLong).toMatchObject({ ok: false, issues: [{ path: "notes", key: "validation.string.max" }] });

    const r = await saveLogin(db, WS, { institution: "Banco", username: "ana", secret: MARK, notes: `${MARK} notes` }, sealer);
    if (!r.ok) throw new Error(JSON.stringify(r));
    const rec = await db.get("logins", r.id);
    expect(rec?.fields.secret).toMatch(VAULT_CIPHERTEXT_PATTERN);
    const keys = session.get(WS)!.keys;
    expect(await openField(keys, { workspaceId: WS, recordId: r.id, field: "secret" }, rec!.fields.secret!)).toBe(MARK);
    expect(await openField(keys, { workspaceId: WS, recordId: r.id, field: "notes" }, rec!.fields.notes!)).toBe(`${MARK} notes`);

    const before = rec!.fields.secret;
    const edit = await saveLogin(db, WS, { institution: "Banco Nuevo", username: "ana", secret: MARK }, sealer, { id: r.id, previous: { secret: MARK, notes: `${MARK} notes` } });
    expect(edit.ok).toBe(true);
    const after = await db.get("logins", r.id);
    expect(after?.fields).toEqual({ institution: "Banco Nuevo", username: "ana", secret: before });
    // Renaming while locked is fine (no secret to seal).
    expect((await saveLogin(db, WS, { institution: "Banco 3", username: "ana", secret: MARK }, null, { id: r.id, previous: { secret: MARK } })).ok).toBe(true);

    const everything = await everyRow(factory, "vault-test");
    expect(everything).toContain(before); // the stores were read: the ciphertext is there
    expect(everything).toContain("Banco 3");
    expect(everything).not.toContain("MARKER");
    expect((await deleteLogin(db, r.id)).ok).toBe(true);
    await db.destroy();
  });
});

describe("key rotation", () => {
  const OLD = "the old leaked passphrase";
  const NEW = "a brand new passphrase";

  /** A device database with a vault under OLD, three logins sealed with it, and an unlocked session. */
  async function vaultWithLogins(name: string) {
    const factory = new IDBFactory();
    const db = await ClientDb.open({ name, indexedDB: factory, IDBKeyRange });
    const made = await createVaultKey(OLD, WS, FAST);
    const stored = await saveVaultKey(db, WS, made.record);
    if (!stored.ok) throw new Error("key not stored");
    const session = new VaultSession();
    session.adopt(WS, made.key, { id: stored.id, wrappedKey: made.record.wrappedKey, kek: made.kek });
    const plain = [
      { institution: "Banco A", secret: "pw-a", notes: "notes a" },
      { institution: "Banco B", secret: "pw-b" },
      { institution: "Broker C", secret: "pw-c", notes: "notes c" },
    ];
    const ids: string[] = [];
    for (const p of plain) {
      const r = await saveLogin(db, WS, p, sealerOf(session.get(WS)));
      if (!r.ok) throw new Error(JSON.stringify(r));
      ids.push(r.id);
    }
    return { factory, db, made, keyRecordId: stored.id, session, plain, ids };
  }

  const stored = async (db: ClientDb) => (await db.list("vaultKeys", WS)).map((r) => ({ id: r.id, fields: r.fields }));

  test("re-seals every login with a new key of a higher generation, in one batch; the old key stays, wrapped under the new passphrase; the old passphrase opens nothing", async () => {
    const { db, made, keyRecordId, session, plain, ids } = await vaultWithLogins("rotate-reseal");
    const done = await rotateVault({ db, session, workspaceId: WS, wrappings: wrappingsOf(await stored(db), []), current: OLD, next: NEW, canEdit: true, params: FAST });
    expect(done).toMatchObject({ resealed: 5, left: 0 });

    const keys = await stored(db);
    expect(keys.map((k) => k.id).sort()).toEqual([keyRecordId, done.recordId].sort());
    const fresh = keys.find((k) => k.id === done.recordId)!.fields;
    expect(fresh.generation).toBe(2);
    expect(fresh.keyId).not.toBe(made.record.keyId);
    expect(validate("vaultKey", fresh).ok).toBe(true);
    const old = keys.find((k) => k.id === keyRecordId)!.fields;
    expect(old.keyId).toBe(made.record.keyId);
    expect(old.generation).toBeUndefined();
    // The session writes with the new key at once.
    expect(session.get(WS)!.primary.keyId).toBe(fresh.keyId);
    expect(sealerOf(session.get(WS), keys)!.keyId).toBe(fresh.keyId);

    // The old passphrase opens nothing any more; the new one opens both keys, the new one first
    // (a higher generation, though its record id sorts after the old one).
    const other = new VaultSession();
    await expect(other.unlock(WS, wrappingsOf(keys, []), OLD)).rejects.toBeInstanceOf(WrongPassphraseError);
    const v = await other.unlock(WS, wrappingsOf(keys, []), NEW);
    expect(v.primary.keyId).toBe(fresh.keyId);
    expect([...v.keys.keys()].sort()).toEqual([made.record.keyId, fresh.keyId].sort());
    // Every login: sealed with the new key, same plaintext, and no key but the new one opens it.
    const onlyNew = new Map([[fresh.keyId, v.keys.get(fresh.keyId)!]]);
    for (const [i, id] of ids.entries()) {
      const login = await db.get("logins", id);
      for (const field of ["secret", "notes"] as const) {
        const c = login!.fields[field];
        expect(c === undefined, `${id} ${field}`).toBe(plain[i]![field] === undefined);
        if (c === undefined) continue;
        expect(c.split(".")[1]).toBe(fresh.keyId);
        expect(await openField(onlyNew, { workspaceId: WS, recordId: id, field }, c)).toBe(plain[i]![field]);
      }
    }
    await db.destroy();
  });

  test("a login written with the old key after the rotation (a device still unlocked with it) opens with the new passphrase, and is sealed with the new key when next saved", async () => {
    const { db, made, session, ids } = await vaultWithLogins("rotate-offline");
    // Another device, unlocked with the old passphrase before the rotation, stays unlocked with it.
    const offline = new VaultSession();
    offline.adopt(WS, made.key);
    const wrappings = wrappingsOf(await stored(db), []);
    await rotateVault({ db, session, workspaceId: WS, wrappings, current: OLD, next: NEW, canEdit: true, params: FAST });
    const keys = await stored(db);
    // The offline device knows only the old key: it writes a new password with it.
    const late = await saveLogin(db, WS, { institution: "Banco A", secret: "changed offline" }, sealerOf(offline.get(WS), keys), {
      id: ids[0]!,
      previous: { institution: "Banco A", secret: "pw-a", notes: "notes a" },
    });
    expect(late.ok).toBe(true);
    const written = (await db.get("logins", ids[0]!))!.fields.secret!;
    expect(written.split(".")[1]).toBe(made.record.keyId);
    // Its session is told the key was rotated elsewhere (and is never offered to join it).
    const notices = vaultNotices(keys, [], offline.get(WS)!);
    expect(notices.map((n) => n.kind)).toEqual(["rotated"]);

    const fresh = new VaultSession();
    const v = await fresh.unlock(WS, wrappingsOf(keys, []), NEW);
    const place0 = { workspaceId: WS, recordId: ids[0]!, field: "secret" };
    expect(await openField(v.keys, place0, written)).toBe("changed offline");
    // Saved again on a device with the new key (another field changed, the secret as it was): the
    // secret is sealed again with the new key, its plaintext unchanged.
    const again = await saveLogin(db, WS, { institution: "Banco A nuevo", secret: "changed offline" }, sealerOf(v, keys), {
      id: ids[0]!,
      previous: { institution: "Banco A", secret: "changed offline" },
    });
    expect(again.ok).toBe(true);
    const resealed = (await db.get("logins", ids[0]!))!.fields;
    expect(resealed.institution).toBe("Banco A nuevo");
    expect(resealed.secret!.split(".")[1]).toBe(v.primary.keyId);
    expect(await openField(v.keys, place0, resealed.secret!)).toBe("changed offline");
    await db.destroy();
  });

  test("two rotations at once on two devices converge on one key for new writes on both", async () => {
    const base = await createVaultKey(OLD, WS, FAST);
    const K1 = "0193-0000-old";
    const start = [{ id: K1, fields: base.record }];
    // Each device rotates offline, with its own new passphrase; each session writes with its key.
    const rotA = await prepareRotation(start, OLD, "passphrase chosen on A", WS, FAST);
    const rotB = await prepareRotation(start, OLD, "passphrase chosen on B", WS, FAST);
    expect(rotA.record.generation).toBe(2);
    expect(rotB.record.generation).toBe(2);
    const [idA, idB] = ["0193-0001-bbb", "0193-0001-aaa"]; // B's record id sorts first
    const a = new VaultSession();
    a.adopt(WS, base.key, { id: K1, wrappedKey: base.record.wrappedKey, kek: base.kek });
    a.rotated(WS, rotA, idA);
    const b = new VaultSession();
    b.adopt(WS, base.key, { id: K1, wrappedKey: base.record.wrappedKey, kek: base.kek });
    b.rotated(WS, rotB, idB);
    // Both sync: the old key record keeps one re-wrapping (the other is a losing wrapping, not needed
    // here), and both new keys arrive.
    let merged = [
      { id: K1, fields: rotA.rewrapped.get(K1)! },
      { id: idA, fields: rotA.record },
      { id: idB, fields: rotB.record },
    ];
    // Each device is told of the other rotation, as a key it may join (same generation).
    expect(vaultNotices(merged, [], a.get(WS)!)).toEqual([{ kind: "otherKey", recordId: idB, record: rotB.record, rotation: true }]);
    expect(vaultNotices(merged, [], b.get(WS)!).filter((n) => n.kind === "otherKey")).toEqual([{ kind: "otherKey", recordId: idA, record: rotA.record, rotation: true }]);
    // A joins B's key with B's passphrase (wrapped under A's): A now writes with B's key, the lower
    // record id of the highest generation; B's session, which holds its own key, writes with it.
    const joined = await joinVaultKey(rotB.record, "passphrase chosen on B", a.get(WS)!.kek!, WS);
    a.rewrapped(WS, new Map([[idB, joined.record.wrappedKey]]), { key: joined.key });
    merged = [merged[0]!, merged[1]!, { id: idB, fields: joined.record }];
    expect(joined.record.generation).toBe(2);
    expect(sealerOf(a.get(WS), merged)!.keyId).toBe(rotB.record.keyId);
    expect(sealerOf(b.get(WS), merged)!.keyId).toBe(rotB.record.keyId);
    // And A's passphrase, now the vault's for every key, unlocks every device on the same key.
    const c = new VaultSession();
    const v = await c.unlock(WS, wrappingsOf(merged, []), "passphrase chosen on A");
    expect(v.keys.size).toBe(3);
    expect(currentKey(v, merged).keyId).toBe(rotB.record.keyId);
    expect(v.primary.keyId).toBe(rotB.record.keyId);
  });

  test("all or nothing: a key record gone meanwhile refuses the whole rotation, no login re-sealed", async () => {
    const { factory, db, keyRecordId, ids } = await vaultWithLogins("rotate-atomic");
    const wrappings = wrappingsOf(await stored(db), []);
    const rotation = await prepareRotation(wrappings, OLD, NEW, WS, FAST);
    const before = await everyRow(factory, "rotate-atomic");
    const rewrapped = new Map([...rotation.rewrapped, ["0193-gone-meanwhile", rotation.rewrapped.get(keyRecordId)!]]);
    let resealed = 0;
    const r = await rotateVaultKey(db, WS, { key: rotation.record, rewrapped }, (place, c) => {
      resealed++;
      return resealField(rotation.keys, rotation.key, place, c);
    });
    expect(r).toMatchObject({ ok: false, issues: [{ key: "validation.notFound" }] });
    expect(resealed).toBe(5);
    expect(ids).toHaveLength(3);
    expect(await everyRow(factory, "rotate-atomic")).toBe(before);
    await db.destroy();
  });

  test("a lock that comes while the keys are being derived cancels the rotation: nothing written", async () => {
    const { factory, db, session } = await vaultWithLogins("rotate-locked");
    const before = await everyRow(factory, "rotate-locked");
    const pending = rotateVault({ db, session, workspaceId: WS, wrappings: wrappingsOf(await stored(db), []), current: OLD, next: NEW, canEdit: true, params: FAST });
    // Argon2id is still running: the vault locks meanwhile (idle, Lock, sign-out).
    session.lock(WS);
    await expect(pending).rejects.toEqual(new VaultRotationError("locked"));
    expect(await everyRow(factory, "rotate-locked")).toBe(before);
    await db.destroy();
  });

  test("a wrong current passphrase changes nothing", async () => {
    const { factory, db, made, session } = await vaultWithLogins("rotate-wrong");
    const before = await everyRow(factory, "rotate-wrong");
    const pending = await db.pendingCount();
    await expect(
      rotateVault({ db, session, workspaceId: WS, wrappings: wrappingsOf(await stored(db), []), current: "not the passphrase", next: NEW, canEdit: true, params: FAST }),
    ).rejects.toBeInstanceOf(WrongPassphraseError);
    expect(await db.pendingCount()).toBe(pending);
    expect(await everyRow(factory, "rotate-wrong")).toBe(before);
    expect(session.get(WS)!.primary.keyId).toBe(made.key.keyId);
    await db.destroy();
  });

  test("a viewer cannot rotate: refused before anything is derived or written", async () => {
    const { factory, db, made, session } = await vaultWithLogins("rotate-viewer");
    const before = await everyRow(factory, "rotate-viewer");
    await expect(
      rotateVault({ db, session, workspaceId: WS, wrappings: wrappingsOf(await stored(db), []), current: OLD, next: NEW, canEdit: false, params: FAST }),
    ).rejects.toEqual(new VaultRotationError("forbidden"));
    expect(await everyRow(factory, "rotate-viewer")).toBe(before);
    expect(session.get(WS)!.primary.keyId).toBe(made.key.keyId);
    await db.destroy();
  });
});

/** Every row of every object store of the device database (records, outbox, conflicts...), as JSON. */
async function everyRow(factory: IDBFactory, name: string): Promise<string> {
  const idb = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = factory.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const out: unknown[] = [];
  for (const store of [...idb.objectStoreNames]) {
    const rows = await new Promise<unknown[]>((resolve, reject) => {
      const req = idb.transaction(store).objectStore(store).getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    out.push(store, rows);
  }
  idb.close();
  return JSON.stringify(out);
}

describe("passphrase guidance", () => {
  test("too short under 12 characters, strong from 16 varied characters or 4 words", () => {
    expect(passphraseStrength("short one")).toBe("tooShort");
    expect(passphraseStrength("aaaaaaaaaaaaaaaa")).toBe("fair");
    expect(passphraseStrength("Tr0ub4dor&3xyz")).toBe("fair");
    expect(passphraseStrength("caballo grapa batería correcto")).toBe("strong");
  });
});
