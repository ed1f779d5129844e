// The data export against a real device database (fake-indexeddb): every workspace with its
// records as the device shows them, deleted ones out, the vault's secrets, notes and keys never in
// the file.
import { ClientDb, saveLogin, saveVaultKey, type CommandResult } from "@patrimonio/clientdb";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, test } from "vitest";
import type { Me, Workspace } from "../api/types";
import { sealerOf } from "../vault/sealer";
import { createVaultKey } from "../vault/keys";
import { VaultSession } from "../vault/session";
import { buildDataExport, dataExportText, EXPORTED_COLLECTIONS, exportedRecordCount } from "./exportData";

const PERSONAL: Workspace = { id: "0a1b2c3d-0000-4000-8000-000000000001", name: "Personal", kind: "personal", role: "owner" };
const TEAM: Workspace = { id: "0a1b2c3d-0000-4000-8000-000000000002", name: "Familia", kind: "team", role: "viewer" };
const FAST = { algorithm: "argon2id", memoryKiB: 8192, iterations: 1, parallelism: 1 } as const;

const me: Pick<Me, "user"> = {
  user: {
    id: "u1",
    email: "ana@example.com",
    emailVerified: true,
    isAdmin: false,
    firstName: "Ana",
    lastName: "García",
    birthday: "1980-02-29",
    gender: "female",
    country: "ES",
    state: "M",
    totpEnabled: true,
    hasPassword: true,
    username: "ana",
  },
};

/** The command's result when it was accepted; throws with the issues when refused. */
async function ok<T extends object>(p: Promise<CommandResult<T>>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.issues)}`);
  return r;
}

describe("data export", () => {
  test("holds every workspace's records as the device shows them, without deleted ones or the vault's secrets", async () => {
    const db = await ClientDb.open({ name: "export-test", indexedDB: new IDBFactory(), IDBKeyRange });
    const flat = await ok(db.create("assets", PERSONAL.id, { name: "Piso en Madrid", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "320000.50" }));
    const gone = await ok(db.create("assets", PERSONAL.id, { name: "Coche viejo", assetClass: "real_estate", category: "commercial", currency: "EUR", participation: "100" }));
    await ok(db.delete("assets", gone.id));
    await ok(db.create("tasks", PERSONAL.id, { title: "Renovar el seguro", status: "todo", priority: "high" }));
    await ok(db.create("tasks", TEAM.id, { title: "Revisar el testamento", status: "todo", priority: "medium" }));

    // A login with a secret and notes, sealed under a vault key.
    const made = await createVaultKey("frase de paso del baúl", PERSONAL.id, FAST);
    await ok(saveVaultKey(db, PERSONAL.id, made.record));
    const session = new VaultSession();
    session.adopt(PERSONAL.id, made.key);
    const login = await ok(
      saveLogin(db, PERSONAL.id, { institution: "Banco Ejemplo", username: "ana.garcia", secret: "hunter2-SECRETO", notes: "pin 1234 NOTA" }, sealerOf(session.get(PERSONAL.id))),
    );

    const data = await buildDataExport(db, me, [PERSONAL, TEAM], new Date("2026-11-30T10:00:00Z"));
    const text = dataExportText(data);

    expect(data).toMatchObject({ format: "patrimonio.export", version: 1, exportedAt: "2026-11-30T10:00:00.000Z" });
    expect(data.account).toEqual({
      email: "ana@example.com",
      username: "ana",
      firstName: "Ana",
      lastName: "García",
      birthday: "1980-02-29",
      gender: "female",
      country: "ES",
      state: "M",
    });
    expect(data.workspaces.map((w) => [w.name, w.kind, w.role])).toEqual([
      ["Personal", "personal", "owner"],
      ["Familia", "team", "viewer"],
    ]);
    const [personal, team] = data.workspaces;
    // Every exported collection is listed, empty or not.
    expect(Object.keys(personal!.collections)).toEqual([...EXPORTED_COLLECTIONS]);
    expect(personal!.collections.assets).toEqual([{ id: flat.id, name: "Piso en Madrid", assetClass: "real_estate", category: "residential", currency: "EUR", participation: "100", currentValue: "320000.50" }]);
    expect(personal!.collections.tasks.map((t) => t.title)).toEqual(["Renovar el seguro"]);
    expect(team!.collections.tasks.map((t) => t.title)).toEqual(["Revisar el testamento"]);
    expect(team!.collections.assets).toEqual([]);
    // Nothing was sent yet: every record this device wrote counts as not synced.
    expect(personal!.unsyncedRecords).toBe(3);
    expect(team!.unsyncedRecords).toBe(1);
    expect(exportedRecordCount(data)).toBe(4);

    // The login without its secret and notes, and no vault key anywhere.
    expect(personal!.collections.logins).toEqual([{ id: login.id, institution: "Banco Ejemplo", username: "ana.garcia" }]);
    expect(text).not.toContain("hunter2-SECRETO");
    expect(text).not.toContain("NOTA");
    expect(text).not.toMatch(/"v1\.[A-Za-z0-9_-]{11}\./); // no vault ciphertext
    expect(text).not.toContain(made.record.keyId);
    expect(text).not.toContain("Coche viejo");
    expect(JSON.parse(text)).toEqual(data);
    db.close();
  });
});
