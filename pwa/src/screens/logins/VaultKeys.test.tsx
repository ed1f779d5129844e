// The vault's keys when two devices act at the same time, on the logins screen against a real device
// database (fake-indexeddb), the real merge (another device's write applied as a server page), the
// real vault crypto (a small Argon2id memory, stored with the key as any key's parameters are) and
// the app's i18n:
// - two passphrase changes at once: the one that lost still opens the vault, and the screen says
//   which passphrase is the vault's now and lets an editor keep theirs;
// - two set-ups at once (two keys): the screen names the second key, and its passphrase joins it,
//   so every login opens with one passphrase and none is lost;
// - a key rotation on another device while this one is unlocked with the old key: the screen says
//   so, joins nothing, and the new passphrase opens the vault again with the new key.
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider, saveLogin, saveVaultKey, type JsonValue } from "@patrimonio/clientdb";
import { applyServerPage } from "@patrimonio/clientdb/node";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ApiProvider } from "../../api/ApiProvider";
import { createApiClient } from "../../api/client";
import type { Workspace } from "../../api/types";
import { createI18n } from "../../i18n/i18n";
import { createFakeServer, fakeMe } from "../../test/fakeServer";
import { createVaultKey, prepareRotation, resealField, sealField, rewrapVaultKey, sealerOf, unwrapVaultKey, vaultSession, WrongPassphraseError } from "../../vault";
import { LoginsScreen } from "./LoginsScreen";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
const OTHER_CLIENT = "0f0f0f0f-0000-4000-8000-00000000000f";
const FAST = { algorithm: "argon2id", memoryKiB: 8192, iterations: 1, parallelism: 1 } as const;
const FIRST = "frase de paso de prueba";
const MINE = "frase de paso de este dispositivo";
const THEIRS = "frase de paso del otro dispositivo";

let n = 0;

async function openDb(): Promise<ClientDb> {
  return ClientDb.open({ name: `vault-keys-${++n}`, indexedDB: new IDBFactory(), IDBKeyRange });
}

/** A vault key record (created on this device) and a login sealed with it. */
async function keyWithLogin(db: ClientDb, passphrase: string, institution: string, secret: string) {
  const made = await createVaultKey(passphrase, WS, FAST);
  const saved = await saveVaultKey(db, WS, made.record);
  if (!saved.ok) throw new Error("refused");
  vaultSession.adopt(WS, made.key);
  expect((await saveLogin(db, WS, { institution, secret }, sealerOf(vaultSession.get(WS)))).ok).toBe(true);
  vaultSession.lock(WS);
  return { id: saved.id, record: made.record };
}

function show(db: ClientDb, role: Workspace["role"]) {
  const workspace: Workspace = { id: WS, name: "Ana", kind: "team", role };
  const i18n = createI18n({ lng: "es" });
  const server = createFakeServer({ me: fakeMe({ workspaces: [workspace] }) });
  const api = createApiClient({ fetch: server.fetch, language: () => "es" });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const Wrapper = ({ children }: { children?: ReactNode }) => (
    <I18nextProvider i18n={i18n}>
      <ApiProvider client={api}>
        <QueryClientProvider client={queryClient}>
          <ClientDbProvider db={db}>{children}</ClientDbProvider>
        </QueryClientProvider>
      </ApiProvider>
    </I18nextProvider>
  );
  render(<LoginsScreen />, { wrapper: Wrapper });
}

async function unlock(passphrase: string) {
  fireEvent.change(await screen.findByTestId("vault-passphrase", {}, { timeout: 5000 }), { target: { value: passphrase } });
  fireEvent.click(screen.getByTestId("vault-unlock"));
}

/** Shows a login's password in its row and returns what the row then says. */
async function reveal(institution: string): Promise<string> {
  const toggle = await screen.findByRole("button", { name: `Mostrar la contraseña de ${institution}` }, { timeout: 10_000 });
  fireEvent.click(toggle);
  const cell = toggle.parentElement!;
  let text = "";
  await waitFor(() => {
    text = cell.querySelector("[data-testid=login-secret]")?.textContent ?? "";
    expect(["", "…", "••••••••"]).not.toContain(text);
  });
  return text;
}

beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(480);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(1000);
});
afterEach(() => {
  vi.restoreAllMocks();
  vaultSession.lockAll();
});

describe("the vault's keys when two devices act at once", { timeout: 30_000 }, () => {
  test("two passphrase changes at once: the one that lost still opens the vault, the screen says whose passphrase is the vault's, and an editor keeps theirs", async () => {
    const db = await openDb();
    const { id, record } = await keyWithLogin(db, FIRST, "Banco Marcador", "MARCA-secreto");
    const created = (await db.get("vaultKeys", id))!;
    // This device changes the passphrase (pending); another device changes it at the same time
    // (never having seen this change) and its change, later, wins the merge.
    const mine = await rewrapVaultKey(record, FIRST, MINE, WS, FAST);
    expect((await saveVaultKey(db, WS, mine, id)).ok).toBe(true);
    const theirs = await rewrapVaultKey(record, FIRST, THEIRS, WS, FAST);
    await applyServerPage(db, {
      workspaceId: WS,
      cursor: 1,
      hasMore: false,
      snapshot: false,
      changes: [
        {
          seq: 1,
          collection: "vaultKeys",
          recordId: id,
          kind: "mutation",
          mutationId: 1,
          mutation: { op: "put", stamp: "2099-01-01T00:00:00.000Z-0000-0f0f0f0f0f0f0f0f", author: OTHER_CLIENT, fields: { ...theirs }, base: created.clocks },
        },
      ],
    });
    expect((await db.get("vaultKeys", id))!.fields).toEqual(theirs);

    show(db, "editor");
    expect((await screen.findByTestId("vault-locked-concurrent", {}, { timeout: 5000 })).textContent).toContain("cualquiera de las dos abre el baúl");
    await unlock(MINE);
    const lost = await screen.findByTestId("vault-concurrent-lost", {}, { timeout: 10_000 });
    expect(lost.textContent).toContain("ahora el baúl se abre con la frase de paso elegida allí");
    expect(lost.textContent).toContain("Si conservas la tuya");
    expect(await reveal("Banco Marcador")).toBe("MARCA-secreto");

    await act(async () => fireEvent.click(screen.getByTestId("vault-keep-mine")));
    await waitFor(() => expect(screen.queryByTestId("vault-concurrent-lost")).toBeNull());
    const kept = (await db.get("vaultKeys", id))!.fields;
    expect(kept).toEqual(mine);
    expect((await unwrapVaultKey(kept, MINE, WS)).keyId).toBe(record.keyId);
    await expect(unwrapVaultKey(kept, THEIRS, WS)).rejects.toBeInstanceOf(WrongPassphraseError);
    db.close();
  });

  test("the passphrase that won opens the vault and says the other one still does until dismissed", async () => {
    const db = await openDb();
    const { id, record } = await keyWithLogin(db, FIRST, "Banco Marcador", "MARCA-secreto");
    const created = (await db.get("vaultKeys", id))!;
    const mine = await rewrapVaultKey(record, FIRST, MINE, WS, FAST);
    expect((await saveVaultKey(db, WS, mine, id)).ok).toBe(true);
    const theirs = await rewrapVaultKey(record, FIRST, THEIRS, WS, FAST);
    await applyServerPage(db, {
      workspaceId: WS,
      cursor: 1,
      hasMore: false,
      snapshot: false,
      changes: [
        {
          seq: 1,
          collection: "vaultKeys",
          recordId: id,
          kind: "mutation",
          mutationId: 1,
          mutation: { op: "put", stamp: "2099-01-01T00:00:00.000Z-0000-0f0f0f0f0f0f0f0f", author: OTHER_CLIENT, fields: { ...theirs }, base: created.clocks },
        },
      ],
    });
    show(db, "owner");
    await unlock(THEIRS);
    expect((await screen.findByTestId("vault-concurrent-won", {}, { timeout: 10_000 })).textContent).toContain("también lo abre hasta que se descarte");
    await act(async () => fireEvent.click(screen.getByTestId("vault-dismiss-other")));
    await waitFor(() => expect(screen.queryByTestId("vault-concurrent-won")).toBeNull());
    expect(await db.conflicts(WS)).toEqual([]);
    expect((await db.get("vaultKeys", id))!.fields).toEqual(theirs);
    db.close();
  });

  test("two set-ups at once (two keys): the second key is named, its passphrase joins it, and every login opens with one passphrase", async () => {
    const db = await openDb();
    await keyWithLogin(db, MINE, "Banco Marcador", "MARCA-de-mi-clave");
    const other = await keyWithLogin(db, THEIRS, "Caja Otra", "MARCA-de-la-otra-clave");
    show(db, "editor");
    await unlock(MINE);
    const notice = await screen.findByTestId("vault-other-key", {}, { timeout: 10_000 });
    expect(notice.textContent).toContain("Otro dispositivo creó el baúl a la vez que este, con otra frase de paso");
    expect(await reveal("Banco Marcador")).toBe("MARCA-de-mi-clave");
    expect(await reveal("Caja Otra")).toBe("No se puede descifrar con las claves abiertas");

    fireEvent.change(screen.getByTestId("vault-other-passphrase"), { target: { value: "no es ninguna frase" } });
    await act(async () => fireEvent.click(screen.getByTestId("vault-join")));
    await screen.findByText("La frase de paso no es correcta. No se ha cambiado nada.", {}, { timeout: 10_000 });
    fireEvent.change(screen.getByTestId("vault-other-passphrase"), { target: { value: THEIRS } });
    await act(async () => fireEvent.click(screen.getByTestId("vault-join")));
    await waitFor(() => expect(screen.queryByTestId("vault-other-key")).toBeNull(), { timeout: 10_000 });
    await waitFor(() => expect(screen.getAllByTestId("login-secret").map((e) => e.textContent)).toContain("MARCA-de-la-otra-clave"));

    // Written: the passphrase this session unlocked with opens the second key now; its own no longer does.
    const joined = (await db.get("vaultKeys", other.id))!.fields;
    expect((await unwrapVaultKey(joined, MINE, WS)).keyId).toBe(other.record.keyId);
    await expect(unwrapVaultKey(joined, THEIRS, WS)).rejects.toBeInstanceOf(WrongPassphraseError);
    // A later unlock with the one passphrase opens both keys, and says nothing more.
    act(() => vaultSession.lock(WS));
    await unlock(MINE);
    await screen.findByTestId("vault-unlocked", {}, { timeout: 10_000 });
    expect(vaultSession.get(WS)?.keys.size).toBe(2);
    expect(screen.queryByTestId("vault-other-key")).toBeNull();
    db.close();
  });

  test("a key rotated on another device while this one is unlocked with the old key: the screen says so, offers no join, and the new passphrase reopens it with the new key", async () => {
    const db = await openDb();
    // The vault and its login came from the server (synced: nothing of them pending here).
    const made = await createVaultKey(FIRST, WS, FAST);
    const record = made.record;
    const id = "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e71";
    const loginId = "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e72";
    const place = { workspaceId: WS, recordId: loginId, field: "secret" };
    const stamp = (n: number) => `2099-01-01T00:00:0${n}.000Z-0000-0f0f0f0f0f0f0f0f`;
    const put = (seq: number, collection: "vaultKeys" | "logins", recordId: string, fields: Record<string, JsonValue>, base: Record<string, string>) =>
      ({ seq, collection, recordId, kind: "mutation", mutationId: seq, mutation: { op: "put", stamp: stamp(seq), author: OTHER_CLIENT, fields, base } }) as const;
    await applyServerPage(db, {
      workspaceId: WS,
      cursor: 2,
      hasMore: false,
      snapshot: false,
      changes: [put(1, "vaultKeys", id, { ...record }, {}), put(2, "logins", loginId, { institution: "Banco Marcador", secret: await sealField(made.key, place, "MARCA-secreto") }, {})],
    });
    show(db, "editor");
    await unlock(FIRST);
    await screen.findByTestId("vault-unlocked", {}, { timeout: 10_000 });
    expect(await reveal("Banco Marcador")).toBe("MARCA-secreto");

    // The other device rotates the key (new passphrase THEIRS) and its changes arrive.
    const created = (await db.get("vaultKeys", id))!;
    const login = (await db.get("logins", loginId))!;
    const rotation = await prepareRotation([{ id, fields: record }], FIRST, THEIRS, WS, FAST);
    const resealed = await resealField(rotation.keys, rotation.key, place, login.fields.secret!);
    const newKeyId = "01936f6e-7b3a-7c4d-8e5f-0a1b2c3d4e70";
    await act(() =>
      applyServerPage(db, {
        workspaceId: WS,
        cursor: 5,
        hasMore: false,
        snapshot: false,
        changes: [put(3, "vaultKeys", newKeyId, { ...rotation.record }, {}), put(4, "vaultKeys", id, { ...rotation.rewrapped.get(id)! }, created.clocks), put(5, "logins", loginId, { secret: resealed! }, login.clocks)],
      }),
    );
    expect(await db.conflicts(WS)).toEqual([]);
    // This session (the old key only) no longer reads the re-sealed password.
    await waitFor(() => expect(screen.getAllByTestId("login-secret").map((e) => e.textContent)).toContain("No se puede descifrar con las claves abiertas"));
    const notice = await screen.findByTestId("vault-rotated-elsewhere", {}, { timeout: 10_000 });
    expect(notice.textContent).toContain("Lo que guardes ahora en esta sesión se cifra aún con la clave anterior");
    expect(screen.queryByTestId("vault-other-key")).toBeNull();
    expect(screen.queryByTestId("vault-changed-elsewhere")).toBeNull();

    // The old passphrase does not reopen it; the new one does, with the new key for new writes.
    fireEvent.change(screen.getByTestId("vault-rotated-passphrase"), { target: { value: FIRST } });
    await act(async () => fireEvent.click(screen.getByTestId("vault-rotated-unlock")));
    await screen.findByText("La frase de paso no es correcta. No se ha cambiado nada.", {}, { timeout: 10_000 });
    fireEvent.change(screen.getByTestId("vault-rotated-passphrase"), { target: { value: THEIRS } });
    await act(async () => fireEvent.click(screen.getByTestId("vault-rotated-unlock")));
    await waitFor(() => expect(screen.queryByTestId("vault-rotated-elsewhere")).toBeNull(), { timeout: 10_000 });
    expect(vaultSession.get(WS)?.primary.keyId).toBe(rotation.record.keyId);
    expect(vaultSession.get(WS)?.keys.size).toBe(2);
    await waitFor(() => expect(screen.getAllByTestId("login-secret").map((e) => e.textContent)).toContain("MARCA-secreto"));
    db.close();
  });

  test("a key deleted before the server refused it: the screen offers to restore it instead of a new set-up, and its logins open again", async () => {
    const db = await openDb();
    const { id } = await keyWithLogin(db, MINE, "Banco Marcador", "MARCA-secreto");
    const created = (await db.get("vaultKeys", id))!;
    await applyServerPage(db, {
      workspaceId: WS,
      cursor: 1,
      hasMore: false,
      snapshot: false,
      changes: [
        {
          seq: 1,
          collection: "vaultKeys",
          recordId: id,
          kind: "mutation",
          mutationId: 1,
          mutation: { op: "delete", stamp: "2099-01-01T00:00:00.000Z-0000-0f0f0f0f0f0f0f0f", author: OTHER_CLIENT, base: created.clocks },
        },
      ],
    });
    expect((await db.get("vaultKeys", id))!.deleted).toBe(true);
    show(db, "editor");
    const notice = await screen.findByTestId("vault-deleted-key", {}, { timeout: 5000 });
    expect(notice.textContent).toContain("los accesos que cifró no se pueden leer sin ella");
    expect(screen.queryByTestId("vault-setup")).toBeNull();
    await act(async () => fireEvent.click(screen.getByTestId("vault-restore-key")));
    await waitFor(() => expect(screen.queryByTestId("vault-deleted-key")).toBeNull());
    expect((await db.get("vaultKeys", id))!.deleted).toBe(false);
    await unlock(MINE);
    expect(await reveal("Banco Marcador")).toBe("MARCA-secreto");
    db.close();
  });
});
