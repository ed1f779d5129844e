// The logins screen against a real device database (fake-indexeddb), the real vault crypto (a small
// Argon2id memory, stored with the key as any key's parameters are) and the app's i18n: what an
// unlocked vault shows, and what it stops holding once it locks.
import "fake-indexeddb/auto";
import { ClientDb, ClientDbProvider, saveLogin, saveVaultKey } from "@patrimonio/clientdb";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { IDBFactory, IDBKeyRange } from "fake-indexeddb";
import type { ReactNode } from "react";
import { I18nextProvider } from "react-i18next";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { ApiProvider } from "../../api/ApiProvider";
import { createApiClient } from "../../api/client";
import type { Workspace } from "../../api/types";
import { createI18n } from "../../i18n/i18n";
import { createFakeServer, fakeMe } from "../../test/fakeServer";
import { createVaultKey, sealerOf, vaultSession, type SessionKey } from "../../vault";
import { LoginsScreen } from "./LoginsScreen";

const WS = "0a1b2c3d-0000-4000-8000-000000000001";
const FAST = { algorithm: "argon2id", memoryKiB: 8192, iterations: 1, parallelism: 1 } as const;
const SECRET = "MARCA-secreto-9c1";
const NOTES = "MARCA-nota: la tarjeta de claves está en el cajón";

let n = 0;

async function setUp(role: Workspace["role"]): Promise<{ db: ClientDb; key: SessionKey }> {
  const db = await ClientDb.open({ name: `logins-screen-${++n}`, indexedDB: new IDBFactory(), IDBKeyRange });
  const made = await createVaultKey("frase de paso de prueba", WS, FAST);
  expect((await saveVaultKey(db, WS, made.record)).ok).toBe(true);
  vaultSession.adopt(WS, made.key);
  const saved = await saveLogin(db, WS, { institution: "Banco Marcador", username: "ana", secret: SECRET, notes: NOTES }, sealerOf(vaultSession.get(WS)));
  expect(saved.ok).toBe(true);
  const workspace: Workspace = { id: WS, name: "Ana", kind: "personal", role };
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
  await screen.findByText("Banco Marcador", {}, { timeout: 5000 });
  return { db, key: made.key };
}

// jsdom has no layout: give elements the size a browser would so the list's virtualizer renders rows.
beforeEach(() => {
  vi.spyOn(Element.prototype, "clientHeight", "get").mockReturnValue(480);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(1000);
});
afterEach(() => {
  vi.restoreAllMocks();
  vaultSession.lockAll();
});

// Generous, like the passphrase dialog's: under a full parallel run on two cores the real Argon2id of
// the other files slows the first render down.
describe("logins screen", { timeout: 30_000 }, () => {
  test("a viewer with the vault unlocked reads a login's notes for heirs; locked, they are gone", async () => {
    await setUp("viewer");
    fireEvent.click(await screen.findByRole("button", { name: "Leer las notas de Banco Marcador" }));
    const dialog = await screen.findByRole("dialog", { name: "Notas para herederos de Banco Marcador" });
    expect(await within(dialog).findByText(NOTES)).toBeTruthy();
    act(() => vaultSession.lock(WS));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(document.body.textContent).not.toContain("MARCA-");
    expect(screen.queryByRole("button", { name: "Leer las notas de Banco Marcador" })).toBeNull();
  });

  test("a login being edited when the vault locks: the form and its decrypted values are dropped, and unlocking does not bring them back", async () => {
    const { key } = await setUp("owner");
    const actions = await screen.findByRole("button", { name: "Acciones de Banco Marcador" });
    await act(async () => {
      fireEvent.pointerDown(actions, { button: 0, pointerType: "mouse" });
    });
    await act(async () => fireEvent.click(await screen.findByRole("menuitem", { name: "Editar" })));
    const form = await screen.findByTestId("login-form");
    await waitFor(() => expect(within(form).getByTestId<HTMLInputElement>("login-secret").value).toBe(SECRET));
    act(() => vaultSession.lock(WS));
    await waitFor(() => expect(screen.queryByTestId("login-form")).toBeNull());
    act(() => vaultSession.adopt(WS, key));
    await screen.findByTestId("vault-unlocked");
    expect(screen.queryByTestId("login-form")).toBeNull();
    expect(document.body.innerHTML).not.toContain("MARCA-");
  });

  test("saving the form writes only what was changed: another device's user name and notes, synced in while it was open, stay; the secret is not sealed again", async () => {
    const { db } = await setUp("owner");
    const [login] = await db.list("logins", WS);
    const actions = await screen.findByRole("button", { name: "Acciones de Banco Marcador" });
    await act(async () => {
      fireEvent.pointerDown(actions, { button: 0, pointerType: "mouse" });
    });
    await act(async () => fireEvent.click(await screen.findByRole("menuitem", { name: "Editar" })));
    const form = await screen.findByTestId("login-form");
    await waitFor(() => expect(within(form).getByTestId<HTMLInputElement>("login-secret").value).toBe(SECRET));
    // Another device changes the user name and the notes; its edit reaches this device meanwhile.
    const theirs = { institution: "Banco Marcador", username: "ana.garcia", secret: SECRET, notes: "MARCA-otra nota" };
    const previous = { institution: "Banco Marcador", username: "ana", secret: SECRET, notes: NOTES };
    await act(async () => {
      expect(await saveLogin(db, WS, theirs, sealerOf(vaultSession.get(WS)), { id: login!.id, previous })).toEqual({ ok: true, id: login!.id });
    });
    const before = (await db.get("logins", login!.id))!.fields;
    expect(before.username).toBe("ana.garcia");
    fireEvent.change(within(form).getByTestId("login-institution"), { target: { value: "Banco Marcador Nuevo" } });
    await act(async () => fireEvent.click(within(form).getByTestId("login-save")));
    await waitFor(() => expect(screen.queryByTestId("login-form")).toBeNull());
    // The institution changed; the user name and the notes are the other device's; the secret keeps
    // its ciphertext (not sealed again).
    expect((await db.get("logins", login!.id))?.fields).toEqual({ ...before, institution: "Banco Marcador Nuevo" });
  });

  test("a copied password leaves the clipboard when the vault locks", async () => {
    await setUp("viewer");
    const clipboard = { text: "", writeText: (t: string) => Promise.resolve(void (clipboard.text = t)) };
    Object.defineProperty(navigator, "clipboard", { value: clipboard, configurable: true });
    await act(async () => fireEvent.click(await screen.findByRole("button", { name: "Copiar la contraseña de Banco Marcador" })));
    await waitFor(() => expect(clipboard.text).toBe(SECRET));
    act(() => vaultSession.lock(WS));
    await waitFor(() => expect(clipboard.text).toBe(""));
  });

  test("no password field of the vault is offered to the browser's password manager", async () => {
    await setUp("owner");
    const offered = () =>
      [...document.querySelectorAll<HTMLInputElement>('input[type="password"]')].filter(
        (i) => i.getAttribute("autocomplete") !== "off" || i.getAttribute("data-1p-ignore") === null || i.getAttribute("data-lpignore") === null,
      );
    fireEvent.click(await screen.findByTestId("login-new"));
    await screen.findByTestId("login-form");
    expect(document.querySelectorAll('input[type="password"]')).toHaveLength(1);
    expect(offered()).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByTestId("login-form")).toBeNull());
    fireEvent.click(screen.getByTestId("vault-change-open"));
    await screen.findByTestId("vault-change");
    expect(document.querySelectorAll('input[type="password"]')).toHaveLength(3);
    expect(offered()).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByTestId("vault-change")).toBeNull());
    fireEvent.click(screen.getByTestId("vault-rotate-open"));
    await screen.findByTestId("vault-rotate");
    expect(document.querySelectorAll('input[type="password"]')).toHaveLength(3);
    expect(offered()).toEqual([]);
    fireEvent.click(screen.getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByTestId("vault-rotate")).toBeNull());
    act(() => vaultSession.lock(WS));
    await screen.findByTestId("vault-passphrase");
    expect(offered()).toEqual([]);
  });

  test("keyboard focus follows the vault: Lock moves it to the passphrase, unlocking to Lock", async () => {
    await setUp("owner");
    const lock = await screen.findByTestId("vault-lock");
    lock.focus();
    fireEvent.click(lock);
    const passphrase = await screen.findByTestId("vault-passphrase");
    await waitFor(() => expect(document.activeElement).toBe(passphrase));
    fireEvent.change(passphrase, { target: { value: "frase de paso de prueba" } });
    screen.getByTestId("vault-unlock").focus();
    fireEvent.click(screen.getByTestId("vault-unlock"));
    const lockAgain = await screen.findByTestId("vault-lock", {}, { timeout: 10_000 });
    await waitFor(() => expect(document.activeElement).toBe(lockAgain));
  });

  test("the passphrase change dialog closes when the vault locks, with what was typed in it", async () => {
    const { key } = await setUp("owner");
    fireEvent.click(await screen.findByTestId("vault-change-open"));
    fireEvent.change(await screen.findByTestId("vault-current-passphrase"), { target: { value: "MARCA-frase-actual" } });
    act(() => vaultSession.lock(WS));
    await waitFor(() => expect(screen.queryByTestId("vault-change")).toBeNull());
    act(() => vaultSession.adopt(WS, key));
    await screen.findByTestId("vault-unlocked");
    expect(screen.queryByTestId("vault-change")).toBeNull();
    expect(document.body.innerHTML).not.toContain("MARCA-");
  });

  test("rotating the key: offered to owners and editors only; the dialog says when to use it, and every login is then sealed with the new key", async () => {
    const { db, key } = await setUp("editor");
    const dialogOf = async () => {
      fireEvent.click(await screen.findByTestId("vault-rotate-open"));
      return screen.findByRole("dialog", { name: "Renovar la clave del baúl" });
    };
    let dialog = await dialogOf();
    expect(within(dialog).getByTestId("vault-rotate-when").textContent).toContain("si la frase de paso se ha filtrado o si has quitado del espacio de trabajo a alguien que la conocía");
    expect(within(dialog).getByTestId("vault-rotate-old").textContent).toContain("solo podría leerse lo que ya estaba guardado antes de renovar la clave, nunca lo que se guarde después");
    // The same strength rules as the set-up, and a new passphrase that differs from the current one.
    const fill = (current: string, next: string, repeat = next) => {
      fireEvent.change(within(dialog).getByTestId("vault-current-passphrase"), { target: { value: current } });
      fireEvent.change(within(dialog).getByTestId("vault-new-passphrase"), { target: { value: next } });
      fireEvent.change(within(dialog).getByTestId("vault-repeat-passphrase"), { target: { value: repeat } });
    };
    fill("frase de paso de prueba", "corta");
    fireEvent.click(within(dialog).getByTestId("vault-rotate-submit"));
    expect(await within(dialog).findByText("La frase de paso debe tener al menos 12 caracteres")).toBeTruthy();
    fill("frase de paso de prueba", "frase de paso de prueba");
    fireEvent.click(within(dialog).getByTestId("vault-rotate-submit"));
    expect(await within(dialog).findByText("La nueva frase de paso tiene que ser distinta de la actual.")).toBeTruthy();
    // A wrong current passphrase: said on its field, nothing written.
    fill("no es la frase de paso", "una frase de paso completamente nueva");
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId("vault-rotate-submit"));
    });
    expect(await within(dialog).findByText("La frase de paso no es correcta. No se ha cambiado nada.", {}, { timeout: 20_000 })).toBeTruthy();
    expect(await db.list("vaultKeys", WS)).toHaveLength(1);

    fill("frase de paso de prueba", "una frase de paso completamente nueva");
    await act(async () => {
      fireEvent.click(within(dialog).getByTestId("vault-rotate-submit"));
    });
    await waitFor(() => expect(screen.queryByTestId("vault-rotate")).toBeNull(), { timeout: 20_000 });
    const keys = await db.list("vaultKeys", WS);
    expect(keys).toHaveLength(2);
    const fresh = keys.find((k) => k.fields.generation === 2)!;
    expect(vaultSession.get(WS)!.primary.keyId).toBe(fresh.fields.keyId);
    const [login] = await db.list("logins", WS);
    for (const field of ["secret", "notes"] as const) expect(login!.fields[field]!.split(".")[1]).toBe(fresh.fields.keyId);
    expect(login!.fields.secret!.split(".")[1]).not.toBe(key.keyId);
    // The screen still reads it: the list shows the login, unlocked, with no notice about keys.
    expect(screen.getByTestId("vault-unlocked")).toBeTruthy();
    expect(screen.queryByTestId("vault-other-key")).toBeNull();
    expect(screen.queryByTestId("vault-rotated-elsewhere")).toBeNull();

    // Locking closes an open rotation dialog with what was typed in it.
    dialog = await dialogOf();
    fireEvent.change(within(dialog).getByTestId("vault-current-passphrase"), { target: { value: "MARCA-frase-actual" } });
    act(() => vaultSession.lock(WS));
    await waitFor(() => expect(screen.queryByTestId("vault-rotate")).toBeNull());
    expect(document.body.innerHTML).not.toContain("MARCA-frase");
  });

  test("a viewer is not offered the key rotation (nor the passphrase change)", async () => {
    await setUp("viewer");
    await screen.findByTestId("vault-unlocked");
    expect(screen.queryByTestId("vault-rotate-open")).toBeNull();
    expect(screen.queryByTestId("vault-change-open")).toBeNull();
  });

  test("the show-password toggles keep their name and say their state with aria-pressed", async () => {
    await setUp("owner");
    const toggle = await screen.findByRole("button", { name: "Mostrar la contraseña de Banco Marcador" });
    expect(toggle.getAttribute("aria-pressed")).toBe("false");
    fireEvent.click(toggle);
    await waitFor(() => expect(screen.getByTestId("login-secret").textContent).toBe(SECRET));
    expect(screen.getByRole("button", { name: "Mostrar la contraseña de Banco Marcador" }).getAttribute("aria-pressed")).toBe("true");
    fireEvent.click(screen.getByTestId("login-new"));
    const form = await screen.findByTestId("login-form");
    const formToggle = within(form).getByRole("button", { name: "Mostrar la contraseña" });
    fireEvent.click(formToggle);
    expect(within(form).getByRole("button", { name: "Mostrar la contraseña" }).getAttribute("aria-pressed")).toBe("true");
    expect(within(form).getByTestId<HTMLInputElement>("login-secret").type).toBe("text");
  });

  test("a refused passphrase puts focus on its field, which names the error", async () => {
    await setUp("owner");
    const described = (el: Element) =>
      (el.getAttribute("aria-describedby") ?? "")
        .split(" ")
        .map((id) => document.getElementById(id)?.textContent ?? "")
        .join(" ");

    fireEvent.click(await screen.findByTestId("vault-change-open"));
    const dialog = await screen.findByTestId("vault-change");
    fireEvent.change(within(dialog).getByTestId("vault-current-passphrase"), { target: { value: "frase de paso de prueba" } });
    fireEvent.change(within(dialog).getByTestId("vault-new-passphrase"), { target: { value: "una frase nueva bastante larga" } });
    fireEvent.change(within(dialog).getByTestId("vault-repeat-passphrase"), { target: { value: "otra frase distinta" } });
    within(dialog).getByTestId("vault-change-submit").focus();
    fireEvent.click(within(dialog).getByTestId("vault-change-submit"));
    const repeat = within(dialog).getByTestId("vault-repeat-passphrase");
    await waitFor(() => expect(document.activeElement).toBe(repeat));
    expect(described(repeat)).toContain("Las dos frases de paso no coinciden");
    fireEvent.click(within(dialog).getByRole("button", { name: "Cancelar" }));
    await waitFor(() => expect(screen.queryByTestId("vault-change")).toBeNull());

    act(() => vaultSession.lock(WS));
    const passphrase = await screen.findByTestId("vault-passphrase");
    fireEvent.change(passphrase, { target: { value: "no es la frase de paso" } });
    screen.getByTestId("vault-unlock").focus();
    fireEvent.click(screen.getByTestId("vault-unlock"));
    await screen.findByText("La frase de paso no es correcta. No se ha cambiado nada.", {}, { timeout: 10_000 });
    await waitFor(() => expect(document.activeElement).toBe(passphrase));
    expect(described(passphrase)).toContain("La frase de paso no es correcta");
  });
});
