// The passphrase change against a real device database (fake-indexeddb) and the real Argon2id: every
// key the current passphrase opens takes the new one in one transaction, or none does.
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider, saveVaultKey } from "@patrimonio/clientdb";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import { describe, expect, test, vi } from "vitest";
import { renderWithI18n } from "../../ui/testing";
import type { ConflictView } from "@patrimonio/clientdb";
import { createVaultKey, rewrapVaultKey, unwrapVaultKey, WrongPassphraseError } from "../../vault";
import { ChangePassphraseDialog } from "./ChangePassphraseDialog";
import type { VaultKeyRec } from "./hooks";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
const FAST = { algorithm: "argon2id", memoryKiB: 8192, iterations: 1, parallelism: 1 } as const;
const OLD = "frase de paso antigua";
const NEW = "frase de paso nueva del baúl";

async function keyRecord(db: ClientDb): Promise<VaultKeyRec> {
  const made = await createVaultKey(OLD, WS, FAST);
  const saved = await saveVaultKey(db, WS, made.record);
  if (!saved.ok) throw new Error("refused");
  return (await db.get("vaultKeys", saved.id))!;
}

async function change(db: ClientDb, keys: VaultKeyRec[], conflicts: ConflictView[] = []) {
  const onClose = vi.fn();
  renderWithI18n(
    <ClientDbProvider db={db}>
      <ChangePassphraseDialog workspaceId={WS} keys={keys} conflicts={conflicts} onClose={onClose} />
    </ClientDbProvider>,
  );
  fireEvent.change(screen.getByTestId("vault-current-passphrase"), { target: { value: OLD } });
  fireEvent.change(screen.getByTestId("vault-new-passphrase"), { target: { value: NEW } });
  fireEvent.change(screen.getByTestId("vault-repeat-passphrase"), { target: { value: NEW } });
  await act(async () => {
    fireEvent.click(screen.getByTestId("vault-change-submit"));
  });
  return onClose;
}

describe("changing the vault passphrase", () => {
  test("every key it opens takes the new passphrase", { timeout: 30_000 }, async () => {
    const db = await ClientDb.open({ name: "rewrap-all", indexedDB: new IDBFactory(), IDBKeyRange });
    const keys = [await keyRecord(db), await keyRecord(db)];
    const onClose = await change(db, keys);
    // The new passphrase is stretched with the real parameters (64 MiB, 3 passes): a second or so per key.
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 20_000 });
    for (const k of keys) {
      const stored = (await db.get("vaultKeys", k.id))!.fields;
      await expect(unwrapVaultKey(stored, OLD, WS)).rejects.toBeInstanceOf(WrongPassphraseError);
      expect((await unwrapVaultKey(stored, NEW, WS)).keyId).toBe(k.fields.keyId);
    }
    db.close();
  });

  test("one key that cannot be written (gone meanwhile) leaves every key under the old passphrase", { timeout: 30_000 }, async () => {
    const db = await ClientDb.open({ name: "rewrap-none", indexedDB: new IDBFactory(), IDBKeyRange });
    const kept = await keyRecord(db);
    // Listed by the screen, no longer on the device when the change is written (a vault key is
    // never deleted, but the device can lose the workspace): another database holds it.
    const elsewhere = await ClientDb.open({ name: "rewrap-none-elsewhere", indexedDB: new IDBFactory(), IDBKeyRange });
    const gone = await keyRecord(elsewhere);
    elsewhere.close();
    const onClose = await change(db, [kept, gone]);
    expect(await screen.findByText("No se ha podido guardar la nueva frase de paso", {}, { timeout: 20_000 })).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
    const stored = (await db.get("vaultKeys", kept.id))!.fields;
    expect(stored).toEqual(kept.fields);
    expect((await unwrapVaultKey(stored, OLD, WS)).keyId).toBe(kept.fields.keyId);
    db.close();
  });

  test("a passphrase whose change lost to a concurrent one (kept as conflicts) still changes it", { timeout: 30_000 }, async () => {
    const db = await ClientDb.open({ name: "rewrap-lost", indexedDB: new IDBFactory(), IDBKeyRange });
    const won = await keyRecord(db);
    // The record holds another device's wrapping (under a passphrase this user does not know);
    // this user's own change, under OLD, lost the merge and is kept as its conflicts.
    const theirs = await rewrapVaultKey(won.fields, OLD, "la frase del otro dispositivo", WS, FAST);
    expect((await saveVaultKey(db, WS, theirs, won.id)).ok).toBe(true);
    const record = (await db.get("vaultKeys", won.id))!;
    const lost = (field: "kdf" | "wrappedKey"): ConflictView => ({
      id: `vaultKeys/${won.id}/${field}`,
      collection: "vaultKeys",
      recordId: won.id,
      workspaceId: WS,
      field,
      value: won.fields[field],
      current: theirs[field],
      author: "client-a",
      stamp: "2026-11-30T10:00:00.000Z-0000-aaaaaaaaaaaaaaaa",
      at: 0,
    });
    const onClose = await change(db, [record], [lost("kdf"), lost("wrappedKey")]);
    await waitFor(() => expect(onClose).toHaveBeenCalled(), { timeout: 20_000 });
    const stored = (await db.get("vaultKeys", won.id))!.fields;
    expect((await unwrapVaultKey(stored, NEW, WS)).keyId).toBe(won.fields.keyId);
    db.close();
  });
});
